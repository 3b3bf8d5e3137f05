"""clip_by_global_norm: the running sum of the leaves' squares by ``itertools.accumulate`` (its
last item the total), the leaves listed by ``jax.tree_util.tree_leaves``; the factor
``max_norm / max(g, max_norm)`` with a guarded square root.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import itertools

import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    squares = (jnp.sum(jnp.square(leaf)) for leaf in jax.tree_util.tree_leaves(grads))
    *_, total = itertools.accumulate(squares)
    positive = total > 0
    g = jnp.where(positive, jnp.sqrt(jnp.where(positive, total, 1.0)), 0.0)
    factor = max_norm / jnp.maximum(g, max_norm)
    return jax.tree_util.tree_map(lambda leaf: leaf * factor, grads)
