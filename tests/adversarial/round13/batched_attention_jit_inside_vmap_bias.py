"""batched_attention: ``jax.vmap(jax.jit(attend))``, the mask turned into an additive bias
(0 where visible, ``-jnp.inf`` elsewhere) by ``jnp.where`` and added to the scores.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    bias = jnp.where(mask, 0.0, -jnp.inf)
    scores = jnp.dot(q, k.T) / jnp.sqrt(jnp.float32(k.shape[-1])) + bias
    return jnp.dot(jax.nn.softmax(scores), v)


def batched_attention(q, k, v, mask):
    return jax.vmap(jax.jit(attend))(q, k, v, mask)
