import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.sum(x * x) for x in jax.tree_util.tree_leaves(grads))
    norm = jnp.sqrt(jax.lax.stop_gradient(sq))
    # the scale is treated as a constant: right values, but the VJP misses how g moves
    scale = jax.lax.stop_gradient(max_norm / jnp.maximum(norm, max_norm))
    return jax.tree_util.tree_map(lambda x: x * scale, grads)
