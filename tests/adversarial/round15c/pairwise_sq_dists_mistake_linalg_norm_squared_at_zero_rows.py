"""pairwise_sq_dists, mistake: the squared norms written as ``jnp.linalg.norm(X, axis=-1,
keepdims=True) ** 2``: right values, but the norm's derivative at an all-zero row is
``0 / 0``, and the NaN reaches the gradient at the cases whose rows are all zeros.

Problem: pairwise_sq_dists
Expected: WA
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    x_sq = jnp.linalg.norm(X, axis=-1, keepdims=True) ** 2
    y_sq = jnp.linalg.norm(Y, axis=-1, keepdims=True) ** 2
    return x_sq + y_sq.T - 2.0 * X @ Y.T
