"""pairwise_sq_dists: the cross term with ``jnp.inner`` (the products over the last axis of both
sets), the squared norms with ``jnp.square`` summed and broadcast with ``None`` indexing.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    xx = jnp.square(X).sum(-1)
    yy = jnp.square(Y).sum(-1)
    return xx[:, None] + yy[None, :] - 2 * jnp.inner(X, Y)
