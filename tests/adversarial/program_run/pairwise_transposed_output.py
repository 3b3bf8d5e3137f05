"""pairwise_sq_dists: the (m, n) matrix instead of (n, m). Its shape is a function of the
symbols: the cases with n != m have the wrong shape, those with n = m the wrong values.

Problem: pairwise_sq_dists
Expected: WA
"""

import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    return jnp.sum(Y * Y, axis=1)[:, None] + jnp.sum(X * X, axis=1)[None, :] - 2.0 * (Y @ X.T)
