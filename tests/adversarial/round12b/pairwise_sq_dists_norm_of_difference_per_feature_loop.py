"""pairwise_sq_dists: the direct form summed feature by feature over the d columns
(``X[:, k][:, None] - Y[:, k][None, :]``, an (n, m) value a feature): refused, d is a symbol
and the statement forbids a loop over the d features.

Problem: pairwise_sq_dists
Expected: RJ
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    D = jnp.zeros((X.shape[0], Y.shape[0]), X.dtype)
    for k in range(X.shape[1]):
        diff = X[:, k][:, None] - Y[:, k][None, :]
        D = D + diff * diff
    return D
