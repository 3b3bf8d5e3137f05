"""batched_attention: masked scores filled with ``jnp.finfo(jnp.float32).min`` (their exp is 0
exactly once the row's visible maximum is taken off) and ``jax.nn.softmax`` of the row.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = jnp.matmul(q, k.T) / jnp.sqrt(jnp.float32(q.shape[-1]))
    weights = jax.nn.softmax(jnp.where(mask, scores, jnp.finfo(jnp.float32).min), axis=-1)
    return jnp.matmul(weights, v)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, in_axes=(0, 0, 0, 0), out_axes=0)(q, k, v, mask)
