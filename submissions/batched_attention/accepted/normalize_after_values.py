import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    """Unnormalized weights times the values, then each output row divided by its weights' sum
    (the division broadcasts a (t, 1) column over the e columns of the output)."""
    scores = q @ k.T * jax.lax.rsqrt(jnp.float32(q.shape[-1]))
    top = jnp.max(jnp.where(mask, scores, -jnp.inf), axis=-1, keepdims=True)
    unnormalized = jnp.exp(jnp.where(mask, scores - top, -jnp.inf))  # exp(-inf) = 0, masked
    total = jnp.sum(unnormalized, axis=-1, keepdims=True)
    return (unnormalized @ v) / total


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
