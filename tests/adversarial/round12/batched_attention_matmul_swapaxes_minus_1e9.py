"""batched_attention: ``q @ jnp.swapaxes(k, -1, -2)``, masked keys given -1e9 before the
softmax (exp underflows to exactly zero), per example under ``jax.vmap(attend)``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import math

import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ jnp.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    scores = jnp.where(mask, scores, -1e9)
    weights = jax.nn.softmax(scores, axis=-1)
    return weights @ v


batched_attention = jax.vmap(attend)
