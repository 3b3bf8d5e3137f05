"""batched_attention: the softmax by hand with the visible row maximum stopped
(``lax.stop_gradient``: the shift cancels in the weights, so the gradient is unchanged), masked
entries zeroed by ``jnp.where`` before the row sum.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(q.shape[-1])
    top = lax.stop_gradient(jnp.max(jnp.where(mask, scores, -jnp.inf), axis=-1, keepdims=True))
    e = jnp.where(mask, jnp.exp(jnp.where(mask, scores - top, 0.0)), 0.0)
    return (e / e.sum(axis=-1, keepdims=True)) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
