"""batched_attention, honest: the masked scores set to -inf with jnp.where (every row keeps a
key, so the softmax has a finite maximum), one example's attention vmapped over b.

Expected: AC
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = jnp.where(mask, q @ k.T / jnp.sqrt(q.shape[-1]).astype(q.dtype), -jnp.inf)
    return jax.nn.softmax(scores, axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
