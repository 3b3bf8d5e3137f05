"""clip_by_global_norm: honest code: the factor ``max_norm * lax.rsqrt(s)`` of the sum of squares
``s``, taken only where ``s > max_norm**2`` and with ``s`` replaced by 1 elsewhere, so the
derivative is finite at an all-zero tree.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    leaves = jax.tree_util.tree_leaves(grads)
    s = sum(jnp.sum(jnp.square(leaf)) for leaf in leaves)
    over = s > max_norm * max_norm
    safe = jnp.where(over, s, 1.0)
    factor = jnp.where(over, max_norm * jax.lax.rsqrt(safe), 1.0)
    return jax.tree_util.tree_map(lambda leaf: leaf * factor, grads)
