"""clip_by_global_norm: the factor as ``min(1, max_norm * rsqrt(max(s, tiny)))`` with ``s`` the
sum of squares and ``tiny`` float32's smallest normal: at an all-zero tree the floor and the
``minimum`` both take their constant side, but the chain rule still evaluates ``rsqrt``'s
derivative at the floor, ``-0.5 * tiny ** -1.5``, which overflows to -inf in float32, and the
zero cotangent times it is NaN: the statement's warning about ``0 * inf``, one step removed.

Problem: clip_by_global_norm
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def clip_by_global_norm(grads, max_norm):
    leaves = jax.tree_util.tree_leaves(grads)
    s = sum(jnp.sum(jnp.square(leaf)) for leaf in leaves)
    tiny = jnp.finfo(jnp.float32).tiny
    factor = jnp.minimum(1.0, max_norm * lax.rsqrt(jnp.maximum(s, tiny)))
    return jax.tree_util.tree_map(lambda leaf: leaf * factor, grads)
