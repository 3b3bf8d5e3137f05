"""batched_attention: a Python loop over the t queries (one softmax per query, stacked); t is
a symbol, so the loop cannot be traced.

Problem: batched_attention
Expected: RJ dim_read_as_number
"""

import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    rows = []
    for j in range(q.shape[0]):
        s = k @ q[j] / jnp.sqrt(jnp.float32(q.shape[-1]))
        rows.append(jax.nn.softmax(jnp.where(mask[j], s, -jnp.inf)) @ v)
    return jnp.stack(rows)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
