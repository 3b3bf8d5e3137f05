"""batched_attention, honest: ``attend`` returns ``(out, weights)`` (the weights kept for
inspection, as attention code often does), the scores from ``q @ k.mT``, and the batch
function keeps the first output of ``jax.vmap(attend)``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import math

import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = (q @ k.mT) / math.sqrt(q.shape[-1])
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)
    return weights @ v, weights


def batched_attention(q, k, v, mask):
    out, _weights = jax.vmap(attend)(q, k, v, mask)
    return out
