"""batched_attention: the weights as ``exp(scores - logsumexp(scores, where=mask))`` zeroed
outside the mask (``jax.nn.logsumexp``'s ``where``), ``vmap`` with ``out_axes=1`` and the
batch axis moved back by ``jnp.swapaxes``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    lse = jax.nn.logsumexp(scores, axis=-1, where=mask, keepdims=True)
    weights = jnp.where(mask, jnp.exp(jnp.where(mask, scores, lse) - lse), 0.0)
    return weights @ v


def batched_attention(q, k, v, mask):
    return jnp.swapaxes(jax.vmap(attend, out_axes=1)(q, k, v, mask), 0, 1)
