"""clip_by_global_norm: the norm as ``sqrt(where(s > 0, s, 1)) * (s > 0)`` (zero at an all-zero
tree, with a finite derivative), the factor ``max_norm / maximum(g, max_norm)`` (1 where the norm
is within), the leaves scaled in a dict comprehension over a flattened tree rebuilt by
``tree_unflatten``.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    leaves, treedef = jax.tree_util.tree_flatten(grads)
    s = sum(jnp.vdot(l, l) for l in leaves)
    positive = s > 0
    g = jnp.sqrt(jnp.where(positive, s, 1.0)) * positive
    factor = max_norm / jnp.maximum(g, max_norm)
    return jax.tree_util.tree_unflatten(treedef, [l * factor for l in leaves])
