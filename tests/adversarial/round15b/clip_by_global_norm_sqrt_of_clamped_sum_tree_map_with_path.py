"""clip_by_global_norm: the norm as ``sqrt(maximum(s, tiny))`` (the smallest normal float32:
an all-zero tree's norm is tiny and its factor min(1, max_norm / tiny) is 1 with a zero
derivative, no NaN), the squares summed over ``tree_leaves``, the leaves scaled with
``tree_map_with_path`` (the path unused).

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

TINY = float(jnp.finfo(jnp.float32).tiny)


def clip_by_global_norm(grads, max_norm):
    s = sum(jnp.sum(jnp.square(leaf)) for leaf in jax.tree_util.tree_leaves(grads))
    g = jnp.sqrt(jnp.maximum(s, TINY))
    factor = jnp.minimum(1.0, max_norm / g)
    return jax.tree_util.tree_map_with_path(lambda path, leaf: leaf * factor, grads)
