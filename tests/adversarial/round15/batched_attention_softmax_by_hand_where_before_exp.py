"""batched_attention, honest: the softmax written by hand, ``exp(s - max)`` with the maximum over
the visible scores (``jnp.max(..., where=mask, initial=-inf)``), the hidden keys' differences
replaced by ``-inf`` before the ``exp`` so that they are exactly zero.

Problem: batched_attention
Expected: AC
Cases: all
"""
import math

import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    s = jnp.dot(q, k.T) / math.sqrt(q.shape[1])
    m = jnp.max(s, axis=1, keepdims=True, where=mask, initial=-jnp.inf)
    e = jnp.exp(jnp.where(mask, s - m, -jnp.inf))
    return (e / e.sum(axis=1, keepdims=True)) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, in_axes=(0, 0, 0, 0))(q, k, v, mask)
