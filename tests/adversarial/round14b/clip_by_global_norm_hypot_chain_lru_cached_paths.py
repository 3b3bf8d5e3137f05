"""clip_by_global_norm: the leaves' key paths listed by a ``functools.lru_cache`` helper on the
tree's structure (hashable), the norm folded with ``jnp.hypot`` over per-leaf norms written as
``jnp.sqrt`` of a floored square (safe at zero) and the factor ``min(1, max_norm / g)`` with
a ``where`` for g = 0; the tree rebuilt with ``tree_map_with_path``.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


@functools.lru_cache(maxsize=None)
def paths(treedef):
    dummy = jax.tree_util.tree_unflatten(treedef, list(range(treedef.num_leaves)))
    return tuple(p for p, _ in jax.tree_util.tree_flatten_with_path(dummy)[0])


def leaf_norm(leaf):
    sq = jnp.sum(leaf * leaf)
    return jnp.where(sq > 0, jnp.sqrt(jnp.where(sq > 0, sq, 1.0)), 0.0)


def clip_by_global_norm(grads, max_norm):
    treedef = jax.tree_util.tree_structure(grads)
    by_path = dict(jax.tree_util.tree_flatten_with_path(grads)[0])
    g = functools.reduce(jnp.hypot, [leaf_norm(by_path[p]) for p in paths(treedef)])
    scale = jnp.where(g > max_norm, max_norm / jnp.where(g > 0, g, 1.0), 1.0)
    return jax.tree_util.tree_map_with_path(lambda p, leaf: leaf * scale, grads)
