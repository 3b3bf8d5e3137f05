import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.sum(x * x) for x in jax.tree_util.tree_leaves(grads))
    safe = jnp.where(sq > 0, sq, 1.0)
    norm = jnp.where(sq > 0, jnp.sqrt(safe), 0.0)
    scale = jnp.where(sq > 0, max_norm / jnp.where(sq > 0, norm, 1.0), 1.0)
    # always rescaled to length max_norm, also when the tree is already within it
    return jax.tree_util.tree_map(lambda x: x * scale, grads)
