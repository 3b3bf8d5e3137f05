"""pairwise_sq_dists: the NumPy recipe as written in a NumPy course:
``(X ** 2).sum(axis=1)[:, np.newaxis] + (Y ** 2).sum(axis=1)[np.newaxis, :] - 2 * X @ Y.T``,
clamped with ``jnp.maximum(..., 0.0)``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp
import numpy as np


def pairwise_sq_dists(X, Y):
    xx = (X ** 2).sum(axis=1)[:, np.newaxis]
    yy = (Y ** 2).sum(axis=1)[np.newaxis, :]
    return jnp.maximum(xx + yy - 2 * X @ Y.T, 0.0)
