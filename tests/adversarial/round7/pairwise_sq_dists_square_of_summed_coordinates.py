"""pairwise_sq_dists: the square of the difference of the coordinate sums: right where d = 1 and on
no other case.

Problem: pairwise_sq_dists
Expected: WA
Cases: all
"""
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    # (sum |x|)^2 style shortcut: right only in one dimension
    sx = jnp.sum(X, 1)[:, None]
    sy = jnp.sum(Y, 1)[None, :]
    return (sx - sy) ** 2
