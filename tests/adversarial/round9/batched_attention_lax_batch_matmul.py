"""batched_attention: the two batched products by ``jax.lax.batch_matmul`` (no vmap), the
scores masked with ``jnp.where`` to -inf and normalised with ``jax.nn.softmax`` over the keys.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def batched_attention(q, k, v, mask):
    d = q.shape[-1]
    scores = lax.batch_matmul(q, jnp.swapaxes(k, 1, 2)) * (1.0 / d ** 0.5)
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)
    return lax.batch_matmul(weights, v)
