"""pairwise_sq_dists: the cross term as ``jnp.inner(X, Y)`` (contracting the last axes, shape
(n, m)), the squared norms by a ``functools.partial(jnp.sum, axis=-1)`` helper.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
from functools import partial

import jax.numpy as jnp

row_sum = partial(jnp.sum, axis=-1)


def pairwise_sq_dists(X, Y):
    return row_sum(X * X)[:, None] + row_sum(Y * Y)[None, :] - 2.0 * jnp.inner(X, Y)
