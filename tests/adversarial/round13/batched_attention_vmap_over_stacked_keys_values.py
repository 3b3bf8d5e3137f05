"""batched_attention: ``vmap`` with ``in_axes=(0, (0, 0), 0)`` over a tuple of keys and values
passed as one argument, the mask's complement as a boolean ``~mask`` filled with ``-jnp.inf``
by ``jnp.where``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, kv, mask):
    k, v = kv
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    scores = jnp.where(~mask, -jnp.inf, scores)
    return jax.nn.softmax(scores, axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, in_axes=(0, (0, 0), 0))(q, (k, v), mask)
