"""pairwise_sq_dists: a near miss: the expanded form with each row's squared norm written as
``jnp.linalg.norm(X, axis=1) ** 2``: right values, but the derivative of the norm at an all-zero
row is ``0 / 0`` and the gradient NaN.

Problem: pairwise_sq_dists
Expected: WA
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    xx = jnp.linalg.norm(X, axis=1) ** 2
    yy = jnp.linalg.norm(Y, axis=1) ** 2
    return xx[:, None] + yy[None, :] - 2.0 * X @ Y.T
