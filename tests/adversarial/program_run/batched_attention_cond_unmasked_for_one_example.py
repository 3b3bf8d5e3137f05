"""batched_attention: a lax.cond on ``q.shape[0] == 1`` as data, whose branch for a batch of one
example ignores the mask. The cases with b = 1 run that branch and are graded like any other.

Problem: batched_attention
Expected: WA
"""

import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    scores = jnp.einsum("btd,bsd->bts", q, k) / jnp.sqrt(jnp.float32(q.shape[-1]))

    def masked(scores):
        return jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)

    def unmasked(scores):
        return jax.nn.softmax(scores, axis=-1)

    weights = jax.lax.cond(jnp.array(q.shape[0]) == 1, unmasked, masked, scores)
    return jnp.einsum("bts,bse->bte", weights, v)
