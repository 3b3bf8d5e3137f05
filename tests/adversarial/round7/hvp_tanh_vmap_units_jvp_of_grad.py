"""hvp_tanh: one tanh unit's Hessian-vector product (jvp of its gradient), ``jax.vmap`` over the m
rows of W and summed, under ``jax.jit``: an (m, d) intermediate.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.jit
def hvp(W, x, v):
    def unit(w):
        h = lambda z: jnp.tanh(jnp.vdot(w, z))
        return jax.jvp(jax.grad(h), (x,), (v,))[1]

    return jax.vmap(unit)(W).sum(axis=0)
