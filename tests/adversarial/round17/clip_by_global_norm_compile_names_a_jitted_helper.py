"""clip_by_global_norm: the squared norm computed by a jitted helper bound to a local name
``compile`` ("the compiled norm"), then the usual guarded square root and scaling.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _sq_norm(leaves):
    return sum(jnp.sum(leaf * leaf) for leaf in leaves)


def clip_by_global_norm(grads, max_norm):
    compile = jax.jit(_sq_norm)
    sq = compile(jax.tree_util.tree_leaves(grads))
    is_zero = sq == 0
    norm = jnp.where(is_zero, 0.0, jnp.sqrt(jnp.where(is_zero, 1.0, sq)))
    scale = max_norm / jnp.maximum(norm, max_norm)
    return jax.tree_util.tree_map(lambda leaf: leaf * scale, grads)
