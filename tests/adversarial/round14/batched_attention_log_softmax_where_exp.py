"""batched_attention: ``jax.nn.log_softmax(scores, where=mask)`` exponentiated, masked entries
set to 0 by ``jnp.where``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = (q @ k.T) * (1.0 / jnp.sqrt(jnp.float32(q.shape[1])))
    logw = jax.nn.log_softmax(scores, axis=1, where=mask)
    return jnp.where(mask, jnp.exp(logw), 0.0) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
