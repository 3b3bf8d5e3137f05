"""batched_attention: one query at a time, flash-attention style: ``attend`` maps a per-query
function over its t rows with ``jax.lax.map`` (a scan of t trips, t symbolic), each row
masking its scores with ``jnp.where`` and normalising with ``jax.nn.softmax``; ``attend`` is
vmapped over the batch.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scale = 1.0 / jnp.sqrt(jnp.float32(q.shape[-1]))

    def one_query(args):
        qi, mi = args
        s = jnp.where(mi, (k @ qi) * scale, -jnp.inf)
        return jax.nn.softmax(s) @ v

    return jax.lax.map(one_query, (q, mask))


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
