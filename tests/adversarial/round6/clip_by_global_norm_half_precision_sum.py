"""clip_by_global_norm: the squares summed in float16 "to save memory", then cast back: exact
enough on the examples' small entries, but a sum of squares above 65504 (entries up to 100, 64
of them per leaf) overflows to inf and the scale becomes 0.

Problem: clip_by_global_norm
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    leaves = jax.tree_util.tree_leaves(grads)
    sq16 = sum(jnp.sum(jnp.square(x.astype(jnp.float16))) for x in leaves)
    sq = sq16.astype(jnp.float32)
    ok = sq > 0
    g = jnp.sqrt(jnp.where(ok, sq, 1.0))
    scale = jnp.where(ok, jnp.minimum(1.0, max_norm / g), 1.0)
    return jax.tree_util.tree_map(lambda x: x * scale, grads)
