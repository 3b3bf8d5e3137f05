"""hvp_tanh: the closed form W^T diag(c) W v as ``jnp.linalg.multi_dot`` of the four factors,
which picks its own order of products (written left to right by hand, W^T diag(c) W would be a
d x d matrix).

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def hvp(W, x, v):
    t = jnp.tanh(W @ x)
    c = -2.0 * t * (1.0 - t * t)
    return jnp.linalg.multi_dot([W.T, jnp.diag(c), W, v])
