"""pairwise_sq_dists: a near miss (honest code, too much memory): the distance of one pair
written for two ``(d,)`` points and spread over both sets with
``jnp.vectorize(signature="(d),(d)->()")`` on ``X[:, None]`` and ``Y[None]``: it builds the
(n, m, d) difference.

Problem: pairwise_sq_dists
Expected: RJ intermediate_too_large
"""
import jax.numpy as jnp


def pair(x, y):
    diff = x - y
    return jnp.dot(diff, diff)


def pairwise_sq_dists(X, Y):
    return jnp.vectorize(pair, signature="(d),(d)->()")(X[:, None, :], Y[None, :, :])
