"""pairwise_sq_dists: both sets shifted by the mean of their union (distances do not change,
the expansion loses less precision), then the expansion with ``@``; the shift is part of the
function, so its derivative is part of both gradients (and cancels).

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    center = (jnp.sum(X, axis=0) + jnp.sum(Y, axis=0)) / (X.shape[0] + Y.shape[0])
    A, B = X - center, Y - center
    sq_a = (A * A).sum(-1)
    sq_b = (B * B).sum(-1)
    return sq_a[:, None] + sq_b[None, :] - 2.0 * A @ B.T
