"""batched_attention, honest: the queries scaled by ``1 / sqrt(d)`` before the product, the
hidden keys' scores replaced by ``jnp.finfo(jnp.float32).min`` via ``jnp.where``, then
``jax.nn.softmax`` and a second ``jnp.where`` zeroing the hidden weights; ``attend`` mapped
by ``jax.vmap`` with ``in_axes=0`` and ``out_axes=0`` spelled out.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = (q / jnp.sqrt(jnp.float32(q.shape[-1]))) @ k.T
    scores = jnp.where(mask, scores, jnp.finfo(jnp.float32).min)
    weights = jnp.where(mask, jax.nn.softmax(scores, axis=-1), 0.0)
    return weights @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, in_axes=0, out_axes=0)(q, k, v, mask)
