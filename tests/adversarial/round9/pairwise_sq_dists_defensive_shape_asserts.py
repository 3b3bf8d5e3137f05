"""pairwise_sq_dists: defensive ``assert``s on the ranks, the shared feature size, the batch
ranges (``1 <= X.shape[0] <= 32``, decided by the dims' ranges when traced with symbols) and the
dtype, then the expansion.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    assert X.ndim == 2 and Y.ndim == 2, "points are rows"
    assert X.shape[1] == Y.shape[1], "same dimension"
    assert 1 <= X.shape[0] <= 32 and 1 <= Y.shape[0] <= 32
    assert X.dtype == jnp.float32
    xx = jnp.sum(X * X, axis=1)
    yy = jnp.sum(Y * Y, axis=1)
    return xx[:, None] + yy[None, :] - 2.0 * (X @ Y.T)
