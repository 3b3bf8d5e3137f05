"""pairwise_sq_dists: ``jax.vmap`` over the rows of X of a function giving one row of D by the
expansion (``|x|^2 + |Y_j|^2 - 2 Y x``, an (m,) vector per row), with ``functools.partial``
binding Y's squared norms.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


def row(y_norms, Y, x):
    return jnp.dot(x, x) + y_norms - 2.0 * (Y @ x)


def pairwise_sq_dists(X, Y):
    y_norms = jnp.sum(Y * Y, axis=-1)
    return jax.vmap(partial(row, y_norms, Y))(X)
