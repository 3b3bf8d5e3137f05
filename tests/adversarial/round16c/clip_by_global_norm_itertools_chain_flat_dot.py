"""clip_by_global_norm: every leaf ravelled and joined (``itertools.chain`` of the raveled
leaves into ``jnp.concatenate``), the squared norm as ``jnp.dot`` of the 1-d vector with itself,
a ``jax.lax.stop_gradient``-free safe square root, ``jnp.nan_to_num`` left on the factor.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import itertools

import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    leaves = jax.tree_util.tree_leaves(grads)
    flat = jnp.concatenate(list(itertools.chain([jnp.ravel(x) for x in leaves])))
    sq = jnp.dot(flat, flat)
    too_big = sq > max_norm * max_norm
    norm = jnp.sqrt(jnp.where(too_big, sq, max_norm * max_norm))
    factor = jnp.nan_to_num(jnp.where(too_big, max_norm / norm, 1.0))
    return jax.tree_util.tree_map(lambda x: (x * factor).astype(jnp.float32), grads)
