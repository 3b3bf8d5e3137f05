import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(q.shape[-1])
    scores = jnp.where(mask, scores, -jnp.inf)
    return jax.nn.softmax(scores, axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
