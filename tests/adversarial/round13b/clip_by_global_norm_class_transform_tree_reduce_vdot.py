"""clip_by_global_norm: an optax-style transform class whose ``__call__`` sums the leaves'
squares with ``jax.tree_util.tree_reduce(operator.add, ...)`` of ``jnp.vdot(leaf, leaf)``, and
guards the square root on both sides of the ``where``.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import operator

import jax
import jax.numpy as jnp


class ClipByGlobalNorm:
    """Scale a gradient tree so that its joint L2 norm is at most ``max_norm``."""

    def __init__(self, max_norm: float):
        self.max_norm = max_norm

    def global_norm(self, tree) -> jax.Array:
        sq = jax.tree_util.tree_reduce(
            operator.add, jax.tree_util.tree_map(lambda l: jnp.vdot(l, l), tree))
        positive = sq > 0
        return jnp.where(positive, jnp.sqrt(jnp.where(positive, sq, 1.0)), 0.0)

    def __call__(self, tree):
        g = self.global_norm(tree)
        factor = jnp.where(g > self.max_norm, self.max_norm / jnp.where(g > 0, g, 1.0), 1.0)
        return jax.tree_util.tree_map(lambda l: (l * factor).astype(l.dtype), tree)


def clip_by_global_norm(grads, max_norm):
    return ClipByGlobalNorm(max_norm)(grads)
