import jax
import jax.numpy as jnp


def _clip_one(x, max_norm):
    sq = jnp.sum(x * x)
    norm = jnp.where(sq > 0, jnp.sqrt(jnp.where(sq > 0, sq, 1.0)), 0.0)
    return x * (max_norm / jnp.maximum(norm, max_norm))


def clip_by_global_norm(grads, max_norm):
    # each leaf clipped to max_norm on its own
    return jax.tree_util.tree_map(lambda x: _clip_one(x, max_norm), grads)
