"""batched_attention: ``from __future__ import annotations``, the scale ``1 / math.sqrt(d)`` from
the static width as a Python float, the keys transposed with ``jnp.swapaxes(k, -1, -2)``, the
hidden scores set with ``jnp.where(mask, scores, -1e30)`` (a Python scalar) before
``jax.nn.softmax``.

Problem: batched_attention
Expected: AC
Cases: all
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp


def attend(q: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array) -> jax.Array:
    assert q.ndim == 2 and k.ndim == 2
    scale = 1.0 / math.sqrt(q.shape[-1])
    scores = (q @ jnp.swapaxes(k, -1, -2)) * scale
    weights = jax.nn.softmax(jnp.where(mask, scores, -1e30), axis=-1)
    return weights @ v


def batched_attention(q: jax.Array, k: jax.Array, v: jax.Array, mask: jax.Array) -> jax.Array:
    return jax.vmap(attend)(q, k, v, mask)
