"""hvp_tanh: reverse over forward, ``jax.grad`` of the directional derivative
``jax.jvp(f, (z,), (v,))[1]`` (the Hessian is symmetric, so this is H v too).

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda z: jnp.sum(jnp.tanh(W @ z))
    return jax.grad(lambda z: jax.jvp(f, (z,), (v,))[1])(x)
