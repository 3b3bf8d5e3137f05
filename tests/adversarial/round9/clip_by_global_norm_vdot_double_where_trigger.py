"""clip_by_global_norm: the squared norm as a Python ``sum`` of ``jnp.vdot(l, l)`` over the
leaves, the norm by a double ``where`` around ``jnp.sqrt``, and the factor
``where(g > max_norm, max_norm / where(g > max_norm, g, 1), 1)``, so neither branch divides by
zero at an all-zero tree.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.vdot(l, l) for l in jax.tree_util.tree_leaves(grads))
    pos = sq > 0
    g = jnp.where(pos, jnp.sqrt(jnp.where(pos, sq, 1.0)), 0.0)
    over = g > max_norm
    scale = jnp.where(over, max_norm / jnp.where(over, g, 1.0), 1.0)
    return jax.tree_util.tree_map(lambda l: l * scale, grads)
