"""pairwise_sq_dists, honest: squared norms by ``jnp.linalg.vecdot`` (not ``jnp.linalg.norm``
squared, whose gradient at a zero row is NaN), the cross term by ``jnp.linalg.matmul`` in a
jitted helper built with ``functools.partial``.

Problem: pairwise_sq_dists
Expected: AC
"""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="scale")
def _cross(X, Y, scale):
    return scale * jnp.linalg.matmul(X, Y.T)


def pairwise_sq_dists(X, Y):
    x_sq = jnp.linalg.vecdot(X, X)
    y_sq = jnp.linalg.vecdot(Y, Y)
    return x_sq[:, None] + y_sq[None, :] - _cross(X, Y, scale=2.0)
