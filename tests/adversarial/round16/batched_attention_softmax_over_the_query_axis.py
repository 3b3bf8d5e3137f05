"""batched_attention, mistake: the masked softmax taken over the queries (``axis=-2``) instead of
the keys: each column of the weights sums to one, not each row.

Problem: batched_attention
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    s = jnp.where(mask, q @ k.T / jnp.sqrt(q.shape[-1]), -1e30)
    w = jnp.where(mask, jax.nn.softmax(s, axis=-2), 0.0)
    return w @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
