"""clip_by_global_norm: a ``Clipper`` dataclass whose ``__call__`` compares the sum of squares
with ``max_norm ** 2`` and runs ``jax.lax.cond``: the clipping branch takes the square root
(the sum is positive there), the other returns the tree; the tree is the cond's operand.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass
class Clipper:
    max_norm: float

    @staticmethod
    def sum_of_squares(tree):
        return sum(jnp.sum(l * l) for l in jax.tree_util.tree_leaves(tree))

    def clip(self, tree):
        g = jnp.sqrt(self.sum_of_squares(tree))
        return jax.tree_util.tree_map(lambda l: l * (self.max_norm / g), tree)

    def __call__(self, tree):
        too_big = self.sum_of_squares(tree) > self.max_norm ** 2
        return jax.lax.cond(too_big, self.clip, lambda t: t, tree)


def clip_by_global_norm(grads, max_norm):
    return Clipper(max_norm)(grads)
