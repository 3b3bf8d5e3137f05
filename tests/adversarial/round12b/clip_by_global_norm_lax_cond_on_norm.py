"""clip_by_global_norm: the squared norm compared with ``max_norm ** 2`` and a ``lax.cond``
choosing between the tree as it is and the tree scaled (the square root only in the branch
that divides, where the sum is positive); leaves concatenated by ``ravel`` first.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def clip_by_global_norm(grads, max_norm: float):
    flat = jnp.concatenate([jnp.ravel(x) for x in jax.tree_util.tree_leaves(grads)])
    sq = jnp.dot(flat, flat)

    def clipped(tree):
        scale = max_norm / jnp.sqrt(sq)
        return jax.tree_util.tree_map(lambda x: x * scale, tree)

    return lax.cond(sq > max_norm ** 2, clipped, lambda tree: tree, grads)
