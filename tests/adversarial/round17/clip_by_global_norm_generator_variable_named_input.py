"""clip_by_global_norm: the squared norm as ``sum(jnp.sum(input * input) for input in
leaves)``, a generator whose own variable is named ``input`` (the leaves come from the
function's ``leaves``, not from the name).

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    leaves = jax.tree_util.tree_leaves(grads)
    sq = sum(jnp.sum(input * input) for input in leaves)
    is_zero = sq == 0
    norm = jnp.where(is_zero, 0.0, jnp.sqrt(jnp.where(is_zero, 1.0, sq)))
    scale = max_norm / jnp.maximum(norm, max_norm)
    return jax.tree_util.tree_map(lambda leaf: leaf * scale, grads)
