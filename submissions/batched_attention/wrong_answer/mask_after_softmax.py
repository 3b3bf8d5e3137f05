import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    return (jax.nn.softmax(scores, axis=-1) * mask) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
