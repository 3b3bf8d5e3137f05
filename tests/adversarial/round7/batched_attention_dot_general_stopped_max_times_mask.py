"""batched_attention: both products as ``lax.dot_general`` with a batch dimension, masked scores at
``jnp.finfo(float32).min``, a stopped row maximum, and the exponentials multiplied by the mask
before they are normalized.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def batched_attention(q, k, v, mask):
    scale = q.shape[-1] ** -0.5
    s = lax.dot_general(q, k, (((2,), (2,)), ((0,), (0,)))) * scale
    s = jnp.where(mask, s, jnp.finfo(jnp.float32).min)
    m = lax.stop_gradient(jnp.max(s, axis=2, keepdims=True))
    p = jnp.exp(s - m) * mask
    p = p / jnp.sum(p, axis=2, keepdims=True)
    return lax.dot_general(p, v, (((2,), (1,)), ((0,), (0,))))
