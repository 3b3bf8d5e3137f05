"""pairwise_sq_dists: the honest expansion, returned as float16 (half the memory).

Problem: pairwise_sq_dists
Expected: WA
"""

import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    out = jnp.sum(X * X, axis=1)[:, None] + jnp.sum(Y * Y, axis=1)[None, :] - 2.0 * (X @ Y.T)
    return out.astype(jnp.float16)
