"""clip_by_global_norm: an epsilon added to the norm only when the tree is small (g < 0.01), so
that the examples (all zero, or norms near 1) pass: a tree of norm about 1e-3 clipped by a
smaller max_norm is off by a thousandth, as the statement warns.

Problem: clip_by_global_norm
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.sum(x * x) for x in jax.tree_util.tree_leaves(grads))
    ok = sq > 0
    g = jnp.sqrt(jnp.where(ok, sq, 1.0))
    g = jnp.where(g < 0.01, g + 1e-6, g)
    scale = jnp.where(ok, jnp.minimum(1.0, max_norm / g), 1.0)
    return jax.tree_util.tree_map(lambda x: x * scale, grads)
