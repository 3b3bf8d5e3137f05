"""batched_attention, honest: the normaliser's log by ``jax.nn.logsumexp(scores, b=mask)``, the
weights ``exp(where(mask, scores - lse, -inf))``: the hidden scores are dropped before the
``exp``, so nothing infinite is made for the derivative to multiply.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = (q @ k.T) * jax.lax.rsqrt(jnp.float32(q.shape[-1]))
    lse = jax.nn.logsumexp(scores, axis=-1, b=mask.astype(scores.dtype), keepdims=True)
    weights = jnp.exp(jnp.where(mask, scores - lse, -jnp.inf))
    return weights @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
