"""pairwise_sq_dists: code a student writes from the definition, mapped over the points of X
only: ``jax.vmap(lambda x: jnp.sum((Y - x) ** 2, axis=1))(X)``. The map batches the (m, d)
difference of every point into an (n, m, d) value, the n m d numbers the statement forbids.

Problem: pairwise_sq_dists
Expected: RJ
"""
import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    return jax.vmap(lambda x: jnp.sum((Y - x) ** 2, axis=1))(X)
