"""pairwise_sq_dists: one (n, m) square per feature, mapped by ``jax.vmap`` over the d columns and
summed: no Python loop, but the mapped result is the (d, n, m) difference.

Problem: pairwise_sq_dists
Expected: RJ intermediate_too_large
"""
import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    # one (n, m) square per feature, mapped over the d columns: no Python loop
    per_feature = jax.vmap(lambda xc, yc: (xc[:, None] - yc[None, :]) ** 2, in_axes=(1, 1))(X, Y)
    return per_feature.sum(axis=0)
