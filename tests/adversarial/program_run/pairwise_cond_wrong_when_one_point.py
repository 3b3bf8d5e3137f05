"""pairwise_sq_dists: a lax.cond on ``X.shape[0] == 1`` as data, with a wrong branch for one
point (the cross term's sign flipped). The cases with n = 1 run that branch and are graded like
any other.

Problem: pairwise_sq_dists
Expected: WA
"""

import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    def honest(X, Y):
        return jnp.sum(X * X, axis=1)[:, None] + jnp.sum(Y * Y, axis=1)[None, :] - 2.0 * (X @ Y.T)

    def wrong(X, Y):
        return jnp.sum(X * X, axis=1)[:, None] + jnp.sum(Y * Y, axis=1)[None, :] + 2.0 * (X @ Y.T)

    return jax.lax.cond(jnp.array(X.shape[0]) == 1, wrong, honest, X, Y)
