import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = jnp.where(mask, q @ k.T / q.shape[-1], -jnp.inf)
    return jax.nn.softmax(scores, axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
