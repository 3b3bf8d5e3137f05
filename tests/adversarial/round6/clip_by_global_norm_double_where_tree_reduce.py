"""clip_by_global_norm: the squared norm summed with ``jax.tree_util.tree_reduce`` over the
leaves' ``jnp.vdot``, the "double where" that keeps sqrt's derivative away from 0, and the
scale applied with ``tree_map``.

Problem: clip_by_global_norm
Expected: AC
"""

import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    sq = jax.tree_util.tree_reduce(
        lambda acc, leaf: acc + jnp.vdot(leaf, leaf),
        grads, jnp.float32(0.0))
    positive = sq > 0
    g = jnp.sqrt(jnp.where(positive, sq, 1.0))
    scale = jnp.where(positive, jnp.minimum(1.0, max_norm / g), 1.0)
    return jax.tree_util.tree_map(lambda leaf: leaf * scale, grads)
