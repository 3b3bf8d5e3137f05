"""clip_by_global_norm: the squared norm by ``functools.reduce(operator.add, map(...))`` over
the leaves, the square root taken of ``jnp.where(sq > 0, sq, 1.0)`` so that an all-zero tree
has a finite derivative, the factor chosen by a second ``jnp.where``.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import functools
import operator

import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    leaves = jax.tree_util.tree_leaves(grads)
    sq = functools.reduce(operator.add, map(lambda leaf: jnp.sum(leaf * leaf), leaves))
    nonzero = sq > 0
    norm = jnp.sqrt(jnp.where(nonzero, sq, 1.0))
    factor = jnp.where(nonzero, jnp.minimum(1.0, max_norm / norm), 1.0)
    return jax.tree_util.tree_map(lambda leaf: leaf * factor, grads)
