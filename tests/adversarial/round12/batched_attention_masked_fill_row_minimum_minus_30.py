"""batched_attention: masked scores replaced by the row's smallest score less 30 (a fill
relative to the row, so exp gives a masked key at most e^-30 of the largest visible weight),
the softmax by ``jax.nn.softmax``, vmapped.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    s = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    fill = jax.lax.stop_gradient(jnp.min(s, axis=-1, keepdims=True) - 30.0)
    return jax.nn.softmax(jnp.where(mask, s, fill), axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
