import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    k = jax.lax.stop_gradient(k)
    scores = jnp.where(mask, q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1])), -jnp.inf)
    return jax.nn.softmax(scores, axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
