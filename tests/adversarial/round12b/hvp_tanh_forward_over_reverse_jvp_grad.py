"""hvp_tanh: forward over reverse, ``jax.jvp(jax.grad(f), (x,), (v,))[1]`` with f a closure
over W summing ``jnp.tanh(W @ x)``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda z: jnp.sum(jnp.tanh(W @ z))
    return jax.jvp(jax.grad(f), (x,), (v,))[1]
