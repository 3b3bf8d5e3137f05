"""pairwise_sq_dists: a Python branch on ``X.shape[0] >= 2``, which n's range does not decide:
the direct difference for one point, the expansion otherwise. Reading n as a number.

Problem: pairwise_sq_dists
Expected: RJ dim_read_as_number
"""

import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    if X.shape[0] >= 2:
        return jnp.sum(X * X, axis=1)[:, None] + jnp.sum(Y * Y, axis=1)[None, :] - 2.0 * (X @ Y.T)
    diff = X[:, None, :] - Y[None, :, :]
    return jnp.sum(diff * diff, axis=-1)
