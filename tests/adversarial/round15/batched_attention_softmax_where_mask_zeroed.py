"""batched_attention, honest: ``jax.nn.softmax(scores, axis=-1, where=mask)`` for the visible keys,
the masked weights set to zero by ``jnp.where`` after it, ``attend`` mapped by ``jax.vmap``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(q.shape[-1]).astype(q.dtype)
    weights = jax.nn.softmax(scores, axis=-1, where=mask)
    return jnp.where(mask, weights, 0.0) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
