"""clip_by_global_norm: the sum of squares over ``jax.tree_util.tree_leaves``, the norm by the
double-``where`` trick (the square root taken of 1 where the sum is 0) and the factor by
``jnp.minimum``; the tree rebuilt with ``tree_map``.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.sum(jnp.square(leaf)) for leaf in jax.tree_util.tree_leaves(grads))
    nonzero = sq > 0
    g = jnp.where(nonzero, jnp.sqrt(jnp.where(nonzero, sq, 1.0)), 0.0)
    scale = jnp.where(g > max_norm, max_norm / jnp.where(g > max_norm, g, 1.0), 1.0)
    return jax.tree_util.tree_map(lambda x: x * scale, grads)
