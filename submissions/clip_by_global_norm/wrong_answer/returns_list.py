import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    leaves = jax.tree_util.tree_leaves(grads)
    sq = sum(jnp.sum(x * x) for x in leaves)
    norm = jnp.where(sq > 0, jnp.sqrt(jnp.where(sq > 0, sq, 1.0)), 0.0)
    scale = max_norm / jnp.maximum(norm, max_norm)
    return [x * scale for x in leaves]   # the leaves, not the dict
