"""batched_attention, mistake: the hidden keys given a score of zero (``scores * mask``) rather
than left out of the softmax, which the statement warns against: they still take weight.

Problem: batched_attention
Expected: WA
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    return jax.nn.softmax(scores * mask, axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
