"""clip_by_global_norm: the plain ``jnp.sqrt`` norm used only in the predicate of a
``jax.lax.cond`` (a bool, never differentiated) and computed again inside the clipping branch,
where g > max_norm > 0; the other branch returns the tree itself, so an all-zero tree's VJP is
the cotangent.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def global_norm(tree):
    return jnp.sqrt(sum(jnp.sum(jnp.square(leaf)) for leaf in jax.tree_util.tree_leaves(tree)))


def clip_by_global_norm(grads, max_norm):
    def clip(tree):
        scale = max_norm / global_norm(tree)
        return jax.tree_util.tree_map(lambda leaf: leaf * scale, tree)

    return jax.lax.cond(global_norm(grads) > max_norm, clip, lambda tree: tree, grads)
