"""pairwise_sq_dists: one point against the whole set, ``|x|^2 + |Y|^2 - 2 Y x`` by
``jnp.dot``, ``jax.vmap``-ed over the rows of X (no (n, m, d) difference is built).

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _row(x, Y):
    return jnp.dot(x, x) + jnp.sum(Y * Y, axis=-1) - 2.0 * jnp.dot(Y, x)


def pairwise_sq_dists(X, Y):
    return jax.vmap(_row, in_axes=(0, None))(X, Y)
