"""pairwise_sq_dists: the cross term by ``lax.dot_general`` at ``Precision.HIGHEST``, subtracted
once from each norm term, ``(|x|^2 - xy) + (|y|^2 - xy)``, the norms kept as columns and a
transposed row.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def pairwise_sq_dists(X, Y):
    xy = lax.dot_general(X, Y, (((1,), (1,)), ((), ())), precision=lax.Precision.HIGHEST)
    x2 = (X * X).sum(-1, keepdims=True)
    y2 = (Y * Y).sum(-1, keepdims=True).T
    return (x2 - xy) + (y2 - xy)
