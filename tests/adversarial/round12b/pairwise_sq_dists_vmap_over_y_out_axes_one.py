"""pairwise_sq_dists: one point of Y against all of X (a column of D), ``jax.vmap``-ed over the
rows of Y with ``out_axes=1`` so the columns land in place, the norms by ``jnp.square``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    x_sq = jnp.square(X).sum(axis=1)

    def column(y):
        return x_sq + jnp.square(y).sum() - 2.0 * (X @ y)

    return jax.vmap(column, out_axes=1)(Y)
