"""batched_attention, mistake: the softmax written by hand, ``exp(s - max)`` with the maximum over
the visible scores, the hidden keys' terms zeroed by ``jnp.where`` after the ``exp``: where a
hidden key scores far above every visible one, its ``exp`` is infinite, and although ``where``
drops it from the value, its derivative is 0 times infinity, NaN, in the gradients (the
``where`` belongs before the ``exp``).

Problem: batched_attention
Expected: WA wrong_vjp
Cases: all
"""
import math

import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    s = jnp.dot(q, k.T) / math.sqrt(q.shape[1])
    m = jnp.max(s, axis=1, keepdims=True, where=mask, initial=-jnp.inf)
    e = jnp.where(mask, jnp.exp(s - m), 0.0)
    return (e / e.sum(axis=1, keepdims=True)) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, in_axes=(0, 0, 0, 0))(q, k, v, mask)
