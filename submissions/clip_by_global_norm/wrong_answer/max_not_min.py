import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.sum(x * x) for x in jax.tree_util.tree_leaves(grads))
    norm = jnp.where(sq > 0, jnp.sqrt(jnp.where(sq > 0, sq, 1.0)), 0.0)
    # max instead of min: a tree within the norm is blown up to length max_norm
    scale = jnp.maximum(1.0, max_norm / jnp.where(sq > 0, norm, max_norm))
    return jax.tree_util.tree_map(lambda x: x * scale, grads)
