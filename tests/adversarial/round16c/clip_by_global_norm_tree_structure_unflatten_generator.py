"""clip_by_global_norm: ``jax.tree_util.tree_structure`` and ``treedef.flatten_up_to``, the
squared norm as the builtin ``sum`` of a generator of ``jnp.vdot(x, x)`` over the leaves, the
factor ``jnp.clip(max_norm * rsqrt, max=1.0)`` with the rsqrt's argument guarded.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    treedef = jax.tree_util.tree_structure(grads)
    leaves = treedef.flatten_up_to(grads)
    sq = sum(jnp.vdot(x, x) for x in leaves)
    positive = sq > 0
    inv = jax.lax.rsqrt(jnp.where(positive, sq, 1.0))
    factor = jnp.where(positive, jnp.clip(max_norm * inv, max=1.0), 1.0)
    return treedef.unflatten([x * factor for x in leaves])
