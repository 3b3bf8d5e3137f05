"""clip_by_global_norm: the tree raveled with ``jax.flatten_util.ravel_pytree``, the sum of
squares a ``jnp.dot`` of the flat vector with itself, the norm behind a double ``where``, the
scaled vector unraveled back into the tree.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax.flatten_util import ravel_pytree


def clip_by_global_norm(grads, max_norm):
    flat, unravel = ravel_pytree(grads)
    s = jnp.dot(flat, flat)
    safe = jnp.where(s > 0.0, s, 1.0)
    g = jnp.where(s > 0.0, jnp.sqrt(safe), 0.0)
    scale = jnp.where(g > max_norm, max_norm / jnp.where(g > 0, g, 1.0), 1.0)
    return unravel(flat * scale)
