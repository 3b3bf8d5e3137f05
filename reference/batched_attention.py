"""Reference solution for batched_attention: the attention of one example, its masked
entries set to -inf before a stable softmax over the keys, mapped over the batch with
jax.vmap. Nothing loops over the examples and no value has a (t, s, d) or (t, s, e) shape."""

import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    scores = jnp.where(mask, scores, -jnp.inf)
    return jax.nn.softmax(scores, axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
