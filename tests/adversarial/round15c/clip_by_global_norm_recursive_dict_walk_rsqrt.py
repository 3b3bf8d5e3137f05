"""clip_by_global_norm: a recursive walk over the nested dicts by hand (no ``tree_util``), once
to add up the squares and once to rebuild the dict scaled; the factor from ``lax.rsqrt`` of
the squared norm, guarded at zero by a ``where`` on its argument and on the result.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def _sum_squares(node):
    if isinstance(node, dict):
        return sum((_sum_squares(child) for child in node.values()), jnp.float32(0.0))
    return jnp.sum(node * node)


def _scaled(node, factor):
    if isinstance(node, dict):
        return {key: _scaled(child, factor) for key, child in node.items()}
    return node * factor


def clip_by_global_norm(grads, max_norm):
    sq = _sum_squares(grads)
    positive = sq > 0
    inv_norm = lax.rsqrt(jnp.where(positive, sq, 1.0))
    factor = jnp.where(positive & (sq > max_norm * max_norm), max_norm * inv_norm, 1.0)
    return _scaled(grads, factor)
