"""pairwise_sq_dists: a ``PointSet`` class with a ``functools.cached_property`` for the squared
norms and a ``gram`` method, the distance a method between two sets; annotations throughout.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
from functools import cached_property

import jax
import jax.numpy as jnp


class PointSet:
    def __init__(self, pts: jax.Array):
        self.pts = pts

    @cached_property
    def sq_norms(self) -> jax.Array:
        return jnp.einsum("nd,nd->n", self.pts, self.pts)

    def gram(self, other: "PointSet") -> jax.Array:
        return self.pts @ other.pts.T

    def sq_dists(self, other: "PointSet") -> jax.Array:
        return self.sq_norms[:, None] - 2 * self.gram(other) + other.sq_norms[None, :]


def pairwise_sq_dists(X, Y):
    return PointSet(X).sq_dists(PointSet(Y))
