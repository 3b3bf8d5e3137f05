"""batched_attention: no vmap: ``lax.dot_general`` with the batch axis as a batch dimension,
``lax.select`` against a float32 lowest value, ``jax.nn.softmax``.

Problem: batched_attention
Expected: AC
"""

import jax
import jax.numpy as jnp
from jax import lax


def batched_attention(q, k, v, mask):
    d = q.shape[-1]
    scores = lax.dot_general(q, k, (((2,), (2,)), ((0,), (0,)))) * (1.0 / d ** 0.5)
    lowest = jnp.full_like(scores, jnp.finfo(jnp.float32).min)
    weights = jax.nn.softmax(lax.select(mask, scores, lowest), axis=-1)
    return lax.dot_general(weights, v, (((2,), (1,)), ((0,), (0,))))
