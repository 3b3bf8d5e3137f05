"""batched_attention, honest: one batched ``jnp.einsum`` for the scores, ``jax.nn.softmax`` with
``where=mask``, another einsum for the weighted values.

Problem: batched_attention
Expected: AC
"""

import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    scores = jnp.einsum("btd,bsd->bts", q, k) * (1.0 / jnp.sqrt(jnp.float32(q.shape[-1])))
    weights = jax.nn.softmax(scores, axis=-1, where=mask)
    return jnp.einsum("bts,bse->bte", weights, v)
