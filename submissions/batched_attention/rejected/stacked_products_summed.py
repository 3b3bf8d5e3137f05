"""batched_attention, cheat: a scan over the keys stacks each key's products q[j, :] * k[l, :]
(a (t, d) value a step), then sums the (s, t, d) stack over d as a whole: the program holds the
broadcast product of every query and key at once, built a row at a time.

Expected: RJ intermediate_too_large
"""
import math

import jax
import jax.numpy as jnp
from jax import lax


def attend(q, k, v, mask):
    _, products = lax.scan(lambda c, kj: (c, q * kj[None, :]), 0.0, k)
    scores = jnp.sum(products, axis=-1).T / math.sqrt(q.shape[-1])
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)
    return weights @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
