"""batched_attention: the mask made float and added as ``(mask - 1) * 1e9`` (exp of a score less
1e9 below the row's maximum is 0 exactly in float32), ``jax.nn.softmax``, ``vmap``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    bias = (mask.astype(jnp.float32) - 1.0) * 1e9
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1])) + bias
    return jax.nn.softmax(scores, axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
