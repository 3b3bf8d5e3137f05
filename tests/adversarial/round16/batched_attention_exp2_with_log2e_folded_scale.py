"""batched_attention, honest: the softmax in base 2, as fused kernels do: the scores scaled by
log2(e) / sqrt(d) in one constant and exponentiated by ``jnp.exp2`` after subtracting the
stopped row maximum; hidden keys zeroed by ``jnp.where`` on the scores before the ``exp2``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import math

import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    c = math.log2(math.e) / math.sqrt(q.shape[-1])
    s = jnp.where(mask, (q @ k.T) * c, -jnp.inf)
    m = jax.lax.stop_gradient(s.max(axis=-1, keepdims=True))
    p = jnp.exp2(s - m)
    return (p @ v) / p.sum(axis=-1, keepdims=True)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
