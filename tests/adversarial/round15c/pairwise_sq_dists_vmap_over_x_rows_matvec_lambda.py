"""pairwise_sq_dists: one row of the result per point of ``X`` as a lambda assigned to a name,
``|x|^2 + |y_j|^2 - 2 Y x`` with ``jnp.dot`` and ``Y @ x``, mapped over the rows of ``X`` with
``jax.vmap``; the norms of ``Y`` computed once outside the map.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    y_sq = jnp.sum(Y * Y, axis=-1)
    row = lambda x: jnp.dot(x, x) + y_sq - 2.0 * (Y @ x)
    return jax.vmap(row)(X)
