"""batched_attention: ``jax.nn.softmax(scores, axis=-1, where=mask)`` (the softmax over the visible
entries only), its hidden entries set to zero with ``jnp.where`` before the product.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    weights = jnp.where(mask, jax.nn.softmax(scores, axis=-1, where=mask), 0.0)
    return weights @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, in_axes=(0, 0, 0, 0))(q, k, v, mask)
