import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.sum(x * x) for x in jax.tree_util.tree_leaves(grads))   # no square root
    scale = max_norm / jnp.maximum(sq, max_norm)
    return jax.tree_util.tree_map(lambda x: x * scale, grads)
