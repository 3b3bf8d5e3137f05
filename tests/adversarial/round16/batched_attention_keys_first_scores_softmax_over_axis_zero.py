"""batched_attention, honest: the scores built keys first (``k @ q.T``, shape (s, t)), the mask
turned to integers and transposed, the softmax taken over axis 0 (the keys) with
``jnp.where(mask_t > 0, ...)``, and the output as ``weights_t.T @ v``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    seen = mask.astype(jnp.int32).T
    scores_t = (k @ q.T) / jnp.sqrt(jnp.float32(q.shape[-1]))
    weights_t = jax.nn.softmax(jnp.where(seen > 0, scores_t, -jnp.inf), axis=0)
    return weights_t.T @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
