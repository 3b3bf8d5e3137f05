"""clip_by_global_norm: a near miss: ``jnp.minimum(1, max_norm / jnp.sqrt(s))`` with no guard:
right values everywhere (``max_norm / 0`` is infinite, and the minimum 1), but at an all-zero tree
the derivative of the root is infinite and the VJP NaN.

Problem: clip_by_global_norm
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    s = sum(jnp.sum(l * l) for l in jax.tree_util.tree_leaves(grads))
    factor = jnp.minimum(1.0, max_norm / jnp.sqrt(s))
    return jax.tree_util.tree_map(lambda l: l * factor, grads)
