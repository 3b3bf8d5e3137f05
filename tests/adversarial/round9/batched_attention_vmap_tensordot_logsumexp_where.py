"""batched_attention: ``attend`` with ``jnp.tensordot`` for both products and the normaliser
from ``jax.nn.logsumexp(scores, where=mask)`` (its ``where`` argument), the weights
``jnp.where(mask, exp(scores - lse), 0)`` with the masked scores first replaced by the visible
row minimum so that the unselected branch cannot overflow; vmapped over the batch.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = jnp.tensordot(q, k, axes=((1,), (1,))) / jnp.sqrt(jnp.float32(q.shape[1]))
    lowest = jnp.min(jnp.where(mask, scores, jnp.inf), axis=-1, keepdims=True)
    scores = jnp.where(mask, scores, lowest)
    lse = jax.nn.logsumexp(scores, axis=-1, where=mask, keepdims=True)
    weights = jnp.where(mask, jnp.exp(scores - lse), 0.0)
    return jnp.tensordot(weights, v, axes=1)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
