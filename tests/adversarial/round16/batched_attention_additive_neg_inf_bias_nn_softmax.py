"""batched_attention, honest: the mask turned into an additive bias of 0 and ``-jnp.inf``
(``jnp.where(mask, 0.0, -jnp.inf)``) added to the scores before ``jax.nn.softmax``; the
derivative of a hidden score is zero through the softmax's own rule.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    bias = jnp.where(mask, 0.0, -jnp.inf)
    scores = jnp.matmul(q, k.T) / jnp.sqrt(q.shape[-1]) + bias
    return jax.nn.softmax(scores, axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, in_axes=0, out_axes=0)(q, k, v, mask)
