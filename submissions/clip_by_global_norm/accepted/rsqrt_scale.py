"""Honest: the scale from the sum of squares through lax.rsqrt, guarded at zero, and
jax.tree_util.tree_map over the leaves."""
import jax
import jax.numpy as jnp
from jax import lax


def clip_by_global_norm(grads, max_norm):
    sq = sum(jnp.sum(jnp.square(x)) for x in jax.tree_util.tree_leaves(grads))
    over = sq > max_norm * max_norm
    inv_norm = lax.rsqrt(jnp.where(over, sq, 1.0))
    scale = jnp.where(over, max_norm * inv_norm, 1.0)
    return jax.tree_util.tree_map(lambda x: x * scale, grads)
