"""pairwise_sq_dists: the norms combined by ``jnp.add.outer`` and the cross term by
``jnp.tensordot`` over the feature axes.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def sq_norms(A):
    return jnp.square(A).sum(axis=1)


def pairwise_sq_dists(X, Y):
    return jnp.add.outer(sq_norms(X), sq_norms(Y)) - 2 * jnp.tensordot(X, Y, axes=[[1], [1]])
