"""clip_by_global_norm: ``optax``'s formula written out with ``jnp.linalg.norm`` of the
concatenated leaves and ``jnp.where(g < max_norm, 1, max_norm / g)``: the values are right,
but at the all-zero tree the norm's derivative is NaN and reaches the VJP through the
``where``, as the statement warns.

Problem: clip_by_global_norm
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def clip_by_global_norm(grads, max_norm):
    g = jnp.linalg.norm(jnp.concatenate([jnp.ravel(x) for x in jax.tree.leaves(grads)]))
    trigger = g < max_norm
    return jax.tree.map(lambda t: jnp.where(trigger, t, t * max_norm / g), grads)
