import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.sum(x ** 2) for x in jax.tree_util.tree_leaves(grads))
    # the where guards the value only: sqrt(0) is still differentiated in the branch not taken
    norm = jnp.where(sq > 0, jnp.sqrt(sq), 0.0)
    scale = max_norm / jnp.maximum(norm, max_norm)
    return jax.tree_util.tree_map(lambda x: x * scale, grads)
