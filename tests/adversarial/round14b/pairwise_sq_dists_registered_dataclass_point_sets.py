"""pairwise_sq_dists: the two sets held in a ``dataclass`` registered with
``jax.tree_util.register_dataclass`` and passed through a ``jax.jit``-ed method-like function;
the expansion with ``lax.dot_general`` contracting the feature axes.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass
class Points:
    left: jax.Array
    right: jax.Array


@jax.jit
def distances(p: Points) -> jax.Array:
    cross = jax.lax.dot_general(p.left, p.right, (((1,), (1,)), ((), ())))
    a = jnp.sum(p.left ** 2, axis=1, keepdims=True)
    b = jnp.sum(p.right ** 2, axis=1, keepdims=True).T
    return a - 2 * cross + b


def pairwise_sq_dists(X, Y):
    return distances(Points(X, Y))
