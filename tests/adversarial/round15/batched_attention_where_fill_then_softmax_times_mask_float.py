"""batched_attention, honest: the hidden scores replaced by ``-1e30`` (``jnp.where``) before
``jax.nn.softmax``, the weights then multiplied by the mask as a float (the clean way to make
the masked weights exactly zero), the output by ``jnp.matmul``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = jnp.matmul(q, jnp.swapaxes(k, 0, 1)) / jnp.sqrt(jnp.float32(q.shape[-1]))
    weights = jax.nn.softmax(jnp.where(mask, scores, -1e30), axis=-1) * mask.astype(jnp.float32)
    return jnp.matmul(weights, v)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
