"""batched_attention, honest: no ``vmap``: ``lax.dot_general`` with the batch as a batch
dimension for both products, hidden scores filled with ``jnp.finfo(scores.dtype).min`` and
``jax.nn.softmax``; the weights multiplied by the mask afterwards.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def batched_attention(q, k, v, mask):
    scores = lax.dot_general(q, k, (((2,), (2,)), ((0,), (0,))))
    scores = scores / jnp.sqrt(jnp.asarray(q.shape[2], scores.dtype))
    scores = jnp.where(mask, scores, jnp.finfo(scores.dtype).min)
    weights = jax.nn.softmax(scores, axis=-1) * mask
    return lax.dot_general(weights, v, (((2,), (1,)), ((0,), (0,))))
