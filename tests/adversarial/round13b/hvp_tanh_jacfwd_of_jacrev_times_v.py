"""hvp_tanh: the textbook full Hessian ``jax.jacfwd(jax.jacrev(f))(x) @ v``: right values, but a
d x d matrix, which the statement refuses.

Problem: hvp_tanh
Expected: RJ intermediate_too_large
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda z: jnp.sum(jnp.tanh(W @ z))
    return jax.jacfwd(jax.jacrev(f))(x) @ v
