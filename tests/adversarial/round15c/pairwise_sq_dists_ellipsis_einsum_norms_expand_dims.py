"""pairwise_sq_dists: the squared norms by ``jnp.einsum("...d,...d->...", X, X)``, the cross term
by ``jnp.einsum("nd,md->nm", ...)``, the three put together with ``jnp.expand_dims`` on each
side.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    x_sq = jnp.einsum("...d,...d->...", X, X)
    y_sq = jnp.einsum("...d,...d->...", Y, Y)
    cross = jnp.einsum("nd,md->nm", X, Y)
    return jnp.expand_dims(x_sq, 1) + jnp.expand_dims(y_sq, 0) - 2.0 * cross
