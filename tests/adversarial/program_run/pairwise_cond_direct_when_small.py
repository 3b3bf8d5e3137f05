"""pairwise_sq_dists: a lax.cond on n * m * d as data: the direct n x m x d difference when it
is small, the expansion otherwise. Both branches are in the program the rules read.

Problem: pairwise_sq_dists
Expected: RJ intermediate_too_large
"""

import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    n, d = X.shape
    m = Y.shape[0]

    def direct(X, Y):
        diff = X[:, None, :] - Y[None, :, :]
        return jnp.sum(diff * diff, axis=-1)

    def expansion(X, Y):
        return jnp.sum(X * X, axis=1)[:, None] + jnp.sum(Y * Y, axis=1)[None, :] - 2.0 * (X @ Y.T)

    return jax.lax.cond(jnp.array(n * m * d) <= 64, direct, expansion, X, Y)
