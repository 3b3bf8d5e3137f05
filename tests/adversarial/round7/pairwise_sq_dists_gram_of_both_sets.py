"""pairwise_sq_dists: the Gram matrix of all n + m points stacked, its diagonal the squared norms
and its corner the cross terms: no difference is built, but the (n + m)^2 Gram matrix is larger
than the rule allows where n and m differ.

Problem: pairwise_sq_dists
Expected: RJ intermediate_too_large
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    # the Gram matrix of all n + m points, its diagonal the norms, its corner the cross terms
    Z = jnp.concatenate([X, Y], axis=0)
    G = Z @ Z.T
    sq = jnp.diagonal(G)
    n = X.shape[0]
    return sq[:n, None] + sq[None, n:] - 2 * G[:n, n:]
