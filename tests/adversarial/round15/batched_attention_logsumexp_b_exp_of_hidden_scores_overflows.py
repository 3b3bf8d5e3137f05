"""batched_attention, mistake: the log of each row's normaliser by ``jax.nn.logsumexp(scores,
b=mask)`` (right: JAX leaves the zero-weight terms out of its maximum), but the weights as
``where(mask, exp(scores - lse), 0)``: a hidden key far above the visible ones has an infinite
``exp``, and its NaN derivative reaches the gradients through the ``where``.

Problem: batched_attention
Expected: WA wrong_vjp
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = (q @ k.T) * jax.lax.rsqrt(jnp.float32(q.shape[-1]))
    lse = jax.nn.logsumexp(scores, axis=-1, b=mask.astype(scores.dtype), keepdims=True)
    weights = jnp.where(mask, jnp.exp(scores - lse), 0.0)
    return weights @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
