"""batched_attention: the (s, t, d) stack of products made by a scan in one jitted function and
read back one row a step by a scan in another, the scores accumulated in the second scan's
carry: the stack crosses two jit boundaries before it is read.

Problem: batched_attention
Expected: RJ intermediate_too_large
"""

import math

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def _products(q, k):
    return lax.scan(lambda c, kj: (c, q * kj[None, :]), 0.0, k)[1]


@jax.jit
def _scores(products):
    def step(i, row):
        return i + 1, jnp.sum(row, axis=-1)
    return lax.scan(step, 0, products)[1].T


def attend(q, k, v, mask):
    scores = _scores(_products(q, k)) / math.sqrt(q.shape[-1])
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)
    return weights @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
