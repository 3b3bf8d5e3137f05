"""pairwise_sq_dists: Y's norms and the cross term computed from ``lax.stop_gradient(Y)``: the
values are right, the gradient with respect to Y is zero.

Problem: pairwise_sq_dists
Expected: WA
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def pairwise_sq_dists(X, Y):
    Ys = lax.stop_gradient(Y)
    return (X * X).sum(1)[:, None] + (Ys * Ys).sum(1)[None] - 2 * X @ Ys.T
