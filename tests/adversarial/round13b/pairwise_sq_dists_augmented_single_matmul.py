"""pairwise_sq_dists: one matrix product of augmented points: ``[X, |x|^2, 1]`` times
``[-2Y, 1, |y|^2]`` transposed gives |x|^2 + |y|^2 - 2 x.y in one ``dot`` (the (n, d + 2) and
(m, d + 2) operands fit the bound).

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    xx = jnp.sum(X ** 2, axis=1, keepdims=True)
    yy = jnp.sum(Y ** 2, axis=1, keepdims=True)
    A = jnp.concatenate([X, xx, jnp.ones_like(xx)], axis=1)
    B = jnp.concatenate([-2.0 * Y, jnp.ones_like(yy), yy], axis=1)
    return A @ B.T
