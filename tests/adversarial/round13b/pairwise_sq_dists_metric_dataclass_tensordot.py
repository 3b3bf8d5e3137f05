"""pairwise_sq_dists: a frozen dataclass metric with a ``__call__``; the cross term by
``jnp.tensordot(X, Y, axes=((1,), (1,)))``, the result clamped at zero with ``jnp.maximum``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class SquaredEuclidean:
    clamp: bool = True

    def __call__(self, X: jax.Array, Y: jax.Array) -> jax.Array:
        xx = jnp.einsum("nd,nd->n", X, X)
        yy = jnp.einsum("md,md->m", Y, Y)
        xy = jnp.tensordot(X, Y, axes=((1,), (1,)))
        D = xx[:, None] - 2 * xy + yy[None, :]
        return jnp.maximum(D, 0.0) if self.clamp else D


def pairwise_sq_dists(X, Y):
    return SquaredEuclidean()(X, Y)
