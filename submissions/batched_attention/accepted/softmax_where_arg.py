"""batched_attention, honest: jax.nn.softmax(..., where=mask), the batch as a dot_general batch
dimension (lax.dot_general with batch dims).

Expected: AC
"""
import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    scores = jax.lax.dot_general(q, k, (((2,), (2,)), ((0,), (0,)))) / jnp.sqrt(jnp.float32(q.shape[2]))
    weights = jax.nn.softmax(scores, axis=-1, where=mask)
    weights = jnp.where(mask, weights, 0.0)
    return jax.lax.dot_general(weights, v, (((2,), (1,)), ((0,), (0,))))
