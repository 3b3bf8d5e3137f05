"""batched_attention, mistake: the softmax over every key, then the hidden weights zeroed and the
rows divided by their sum again: the same numbers on paper, but a hidden key far above the
visible ones leaves the visible weights underflowed to zero, and the row becomes 0 / 0.

Problem: batched_attention
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    w = jax.nn.softmax(q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1])), axis=-1) * mask
    return (w / jnp.sum(w, axis=-1, keepdims=True)) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
