"""batched_attention: weights as exp(scores - logsumexp) with
``jax.scipy.special.logsumexp(..., b=mask)`` (the mask as the sum's weights) and the masked
entries zeroed by ``jnp.where``, mapped over the batch with ``jax.vmap``.

Problem: batched_attention
Expected: AC
"""

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


def attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(q.shape[-1]).astype(q.dtype)
    safe = jnp.where(mask, scores, -jnp.inf)
    lse = logsumexp(safe, axis=-1, keepdims=True, b=mask.astype(scores.dtype))
    weights = jnp.where(mask, jnp.exp(safe - lse), 0.0)
    return weights @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
