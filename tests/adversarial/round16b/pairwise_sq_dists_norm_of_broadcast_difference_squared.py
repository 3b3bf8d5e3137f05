"""pairwise_sq_dists: the direct form a student writes first,
``jnp.linalg.norm(X[:, None] - Y[None], axis=-1) ** 2``: the difference has ``n m d`` entries.

Problem: pairwise_sq_dists
Expected: RJ intermediate_too_large
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    return jnp.linalg.norm(X[:, None, :] - Y[None, :, :], axis=-1) ** 2
