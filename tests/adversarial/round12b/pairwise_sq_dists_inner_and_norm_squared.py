"""pairwise_sq_dists: the cross term by ``jnp.inner(X, Y)``, the squared norms by
``jnp.vecdot`` of each set with itself, broadcast with ``jnp.newaxis``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    nx = jnp.vecdot(X, X)
    ny = jnp.vecdot(Y, Y)
    return nx[:, jnp.newaxis] + ny[jnp.newaxis, :] - 2.0 * jnp.inner(X, Y)
