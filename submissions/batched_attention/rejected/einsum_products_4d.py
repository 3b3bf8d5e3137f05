"""batched_attention, cheat: an einsum to the 4-D (b, t, s, d) array of every product of a
query's and a key's entries, summed over d afterwards.

Expected: RJ intermediate_too_large
"""
import math

import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    products = jnp.einsum("btd,bsd->btsd", q, k)
    scores = products.sum(axis=-1) / math.sqrt(q.shape[-1])
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)
    return jnp.einsum("bts,bse->bte", weights, v)
