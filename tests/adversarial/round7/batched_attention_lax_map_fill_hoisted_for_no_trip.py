"""batched_attention: ``lax.map`` with ``batch_size=2`` over a function that reads a large
constant built outside it (a (64, t, s) fill, as JAX hoists a ``jnp.where`` fill out of a scan's
body): a value that only a scan reads is weighed only where the scan runs a trip, but the rest,
mapped apart where b is odd, reads it too, so it is weighed at every b.

Problem: batched_attention
Expected: RJ intermediate_too_large
"""
import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    t, s = mask.shape[1], mask.shape[2]
    fill = jnp.full((64, t, s), -jnp.inf)

    def attend(xs):
        qi, ki, vi, mi = xs
        sc = qi @ ki.T / jnp.sqrt(qi.shape[-1])
        return jax.nn.softmax(jnp.where(mi, sc, fill[0]), axis=-1) @ vi

    return jax.lax.map(attend, (q, k, v, mask), batch_size=2)
