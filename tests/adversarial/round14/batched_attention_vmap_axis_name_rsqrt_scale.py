"""batched_attention: ``jax.vmap(attend, axis_name="batch")`` with no collective, queries
scaled by ``lax.rsqrt(d)``, the masked softmax with ``-jnp.inf`` and ``jax.nn.softmax``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def attend(q, k, v, mask):
    scores = (q * lax.rsqrt(jnp.float32(q.shape[-1]))) @ k.T
    return jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, axis_name="batch")(q, k, v, mask)
