"""clip_by_global_norm: an optax-like ``ClipByGlobalNorm`` class with ``init`` and ``update``
(``update(updates, state)`` returning the pair), the squared norm by ``functools.reduce`` over
``jnp.vdot`` of the leaves, a double ``jnp.where`` for a safe square root, and ``tree_map``.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import functools
import operator

import jax
import jax.numpy as jnp


class ClipByGlobalNorm:
    def __init__(self, max_norm: float):
        self.max_norm = max_norm

    def init(self, params):
        return ()

    def update(self, updates, state, params=None):
        leaves = jax.tree_util.tree_leaves(updates)
        sq = functools.reduce(operator.add, [jnp.vdot(l, l) for l in leaves])
        positive = sq > 0
        g = jnp.where(positive, jnp.sqrt(jnp.where(positive, sq, 1.0)), 0.0)
        scale = jnp.where(g > self.max_norm, self.max_norm / jnp.where(positive, g, 1.0), 1.0)
        return jax.tree_util.tree_map(lambda u: u * scale, updates), state


def clip_by_global_norm(grads, max_norm):
    tx = ClipByGlobalNorm(max_norm)
    clipped, _ = tx.update(grads, tx.init(grads))
    return clipped
