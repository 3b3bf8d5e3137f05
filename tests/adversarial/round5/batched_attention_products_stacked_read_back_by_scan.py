"""batched_attention: a scan over the keys stacks each key's products q * k[l] (a (t, d) value a
step), and a second scan reads that (s, t, d) stack back one row a step to make the scores: the
program holds the broadcast product of every query and key at once, as autodiff's residuals
are held, but for the output it returns.

Problem: batched_attention
Expected: RJ intermediate_too_large
"""

import math

import jax
import jax.numpy as jnp
from jax import lax


def attend(q, k, v, mask):
    _, products = lax.scan(lambda c, kj: (c, q * kj[None, :]), 0.0, k)
    _, scores = lax.scan(lambda c, row: (c, jnp.sum(row, axis=-1)), 0.0, products)
    scores = scores.T / math.sqrt(q.shape[-1])
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)
    return weights @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
