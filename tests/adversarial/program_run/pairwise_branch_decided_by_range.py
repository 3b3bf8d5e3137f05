"""pairwise_sq_dists, honest: a Python branch on ``X.shape[0] <= 32``, which n's range (1 to 32)
decides, so it is a branch on no case: every case runs the honest expansion, and the other
branch (wrong) never runs.

Problem: pairwise_sq_dists
Expected: AC
"""

import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    if X.shape[0] <= 32:
        return jnp.sum(X * X, axis=1)[:, None] + jnp.sum(Y * Y, axis=1)[None, :] - 2.0 * (X @ Y.T)
    return jnp.zeros((X.shape[0], Y.shape[0]), X.dtype)
