"""clip_by_global_norm: the per-leaf squared sums in ``jnp.stack`` of a list comprehension, the
factor applied by ``jax.tree_util.tree_map(functools.partial(operator.mul, factor), grads)``,
the norm's zero case kept out of the square root by ``jnp.where``.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import functools
import operator

import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    sums = jnp.stack([jnp.sum(jnp.square(g)) for g in jax.tree_util.tree_leaves(grads)])
    total = sums.sum()
    clip = total > max_norm ** 2
    g_norm = jnp.sqrt(jnp.where(clip, total, 1.0))
    factor = jnp.where(clip, max_norm / g_norm, jnp.ones_like(total))
    return jax.tree_util.tree_map(functools.partial(operator.mul, factor), grads)
