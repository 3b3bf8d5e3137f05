"""clip_by_global_norm: the squared norm by ``jax.tree_util.tree_reduce`` of ``jnp.sum(x * x)``
over the leaves; the trigger ``sq < max_norm ** 2`` and the norm's square root taken of
``jnp.where(trigger, 1, sq)`` (optax's way of keeping the gradient finite).

Problem: clip_by_global_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    sq = jax.tree_util.tree_reduce(lambda a, b: a + b, jax.tree.map(lambda x: jnp.sum(x * x), grads))
    trigger = sq < max_norm ** 2
    g = jnp.sqrt(jnp.where(trigger, 1.0, sq))
    return jax.tree.map(lambda t: jnp.where(trigger, t, t * (max_norm / g)), grads)
