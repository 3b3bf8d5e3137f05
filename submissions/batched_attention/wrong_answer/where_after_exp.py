import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    """The masked keys' exponentials replaced by 0 after exp: the values are right, but where a
    masked key scores far above the visible ones, exp overflows to inf in the branch jnp.where
    leaves out, and its derivative there, 0 times inf, makes the gradients NaN."""
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    top = jnp.max(jnp.where(mask, scores, -jnp.inf), axis=-1, keepdims=True)
    unnormalized = jnp.where(mask, jnp.exp(scores - top), 0.0)
    return unnormalized / jnp.sum(unnormalized, axis=-1, keepdims=True) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
