"""clip_by_global_norm: honest code with a clipper class (``__call__``, ``max_norm`` a plain
attribute) choosing with ``jax.lax.cond`` and lambdas between the tree as it is and the scaled
tree; ``jax.numpy`` imported as ``np``.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as np


class GlobalNormClipper:
    def __init__(self, max_norm):
        self.max_norm = max_norm

    def __call__(self, tree):
        sq = sum(np.sum(leaf * leaf) for leaf in jax.tree_util.tree_leaves(tree))
        limit = self.max_norm ** 2
        return jax.lax.cond(
            sq > limit,
            lambda t: jax.tree_util.tree_map(lambda l: l * (self.max_norm / np.sqrt(sq)), t),
            lambda t: t,
            tree,
        )


def clip_by_global_norm(grads, max_norm):
    return GlobalNormClipper(max_norm)(grads)
