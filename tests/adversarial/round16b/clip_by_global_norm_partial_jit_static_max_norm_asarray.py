"""clip_by_global_norm: honest code under ``functools.partial(jax.jit,
static_argnames="max_norm")``, with ``jnp.asarray(..., dtype=...)`` on every leaf and a double
``where`` around the norm.

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames="max_norm")
def clip_by_global_norm(grads, max_norm):
    leaves, tree = jax.tree_util.tree_flatten(grads)
    leaves = [jnp.asarray(l, dtype=jnp.float32) for l in leaves]
    total = jnp.asarray(0.0, dtype=jnp.float32)
    for l in leaves:
        total = total + jnp.sum(l ** 2)
    positive = total > 0
    norm = jnp.where(positive, jnp.sqrt(jnp.where(positive, total, 1.0)), 0.0)
    scale = jnp.where(norm > max_norm, max_norm / jnp.where(positive, norm, 1.0), 1.0)
    return jax.tree_util.tree_unflatten(tree, [jnp.asarray(l * scale, dtype=jnp.float32) for l in leaves])
