"""clip_by_global_norm: the clip jitted as a whole with ``max_norm`` an ordinary (traced)
argument, the ``jax.tree`` API for the map and the reduction, the factor
``max_norm / maximum(g, max_norm)`` with a guarded norm.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import operator

import jax
import jax.numpy as jnp


@jax.jit
def _clip(grads, max_norm):
    sq = jax.tree.reduce(operator.add, jax.tree.map(lambda l: jnp.sum(l * l), grads))
    nz = sq > 0
    g = jnp.where(nz, jnp.sqrt(jnp.where(nz, sq, 1.0)), 0.0)
    factor = max_norm / jnp.maximum(g, max_norm)
    return jax.tree.map(lambda l: l * factor, grads)


def clip_by_global_norm(grads, max_norm):
    return _clip(grads, jnp.float32(max_norm))
