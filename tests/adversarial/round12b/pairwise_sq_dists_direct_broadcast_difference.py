"""pairwise_sq_dists: the direct form ``((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1)``, which
builds all n m d differences. Refused by the size rule.

Problem: pairwise_sq_dists
Expected: RJ intermediate_too_large
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    return ((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1)
