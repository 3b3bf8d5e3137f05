"""clip_by_global_norm: each leaf's norm guarded at zero, then folded with ``functools.reduce``
over ``jnp.hypot`` (the norm of two norms, with JAX's own stable rule); the factor
``max_norm / max(g, max_norm)``, whose floor passes no derivative back below the bound, so the
all-zero tree's VJP is the cotangent.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def _leaf_norm(leaf):
    sq = jnp.sum(leaf * leaf)
    ok = sq > 0
    return jnp.where(ok, jnp.sqrt(jnp.where(ok, sq, 1.0)), 0.0)


def clip_by_global_norm(grads, max_norm):
    norms = [_leaf_norm(leaf) for leaf in jax.tree_util.tree_leaves(grads)]
    g = functools.reduce(jnp.hypot, norms)
    factor = max_norm / jnp.maximum(g, max_norm)
    return jax.tree_util.tree_map(lambda leaf: leaf * factor, grads)
