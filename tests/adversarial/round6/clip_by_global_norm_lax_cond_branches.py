"""clip_by_global_norm: ``lax.cond`` chooses between returning the tree and clipping it, the
whole tree passed as the operand; only the branch taken is differentiated, so the clipping
branch may use a plain ``jnp.linalg.norm`` of the concatenated leaves.

Problem: clip_by_global_norm
Expected: AC
"""

import jax
import jax.numpy as jnp


def _flat(tree):
    return jnp.concatenate([jnp.ravel(x) for x in jax.tree_util.tree_leaves(tree)])


def _clip(tree, max_norm):
    norm = jnp.linalg.norm(_flat(tree))
    return jax.tree_util.tree_map(lambda x: x * (max_norm / norm), tree)


def clip_by_global_norm(grads, max_norm):
    sq = jnp.sum(_flat(grads) ** 2)
    return jax.lax.cond(sq > max_norm * max_norm, lambda t: _clip(t, max_norm),
                        lambda t: t, grads)
