"""batched_attention: the one-example attention as a ``functools.partial`` with its scale bound,
mapped with ``jax.vmap`` over the middle axis of a transposed q (``in_axes=(1, 0, 0, 0)``) and
out on the last axis (``out_axes=2``), then moved back; the softmax from
``jax.scipy.special.logsumexp`` over scores filled with -inf.

Problem: batched_attention
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def _attend(q, k, v, mask, *, scale):
    logits = jnp.dot(q, k.T) * scale
    logits = jnp.where(mask, logits, -jnp.inf)
    lse = jax.scipy.special.logsumexp(logits, axis=1, keepdims=True)
    return jnp.exp(logits - lse) @ v


def batched_attention(q, k, v, mask):
    d = q.shape[-1]
    f = functools.partial(_attend, scale=1.0 / jnp.sqrt(d).astype(jnp.float32))
    # batch on the middle axis of q, out on the last: then move it back
    qt = jnp.transpose(q, (1, 0, 2))
    out = jax.vmap(f, in_axes=(1, 0, 0, 0), out_axes=2)(qt, k, v, mask)
    return jnp.transpose(out, (2, 0, 1))
