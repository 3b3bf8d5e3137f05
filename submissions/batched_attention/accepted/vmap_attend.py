import math

import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ k.T / math.sqrt(q.shape[-1])
    scores = jnp.where(mask, scores, -1e9)
    weights = jax.nn.softmax(scores, axis=-1)
    return weights @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
