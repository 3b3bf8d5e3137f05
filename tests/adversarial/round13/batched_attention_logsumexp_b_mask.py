"""batched_attention: the log-weights as the scores (masked ones ``-inf``) less
``jax.nn.logsumexp(..., b=mask)``, the mask as the sum's weights, exponentiated; ``vmap`` over
the batch.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = jnp.where(mask, (q @ k.T) / jnp.sqrt(jnp.float32(q.shape[1])), -jnp.inf)
    log_norm = jax.nn.logsumexp(scores, axis=-1, b=mask.astype(jnp.float32), keepdims=True)
    return jnp.exp(scores - log_norm) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
