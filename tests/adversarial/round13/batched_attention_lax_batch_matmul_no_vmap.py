"""batched_attention: the batch carried by ``jax.lax.batch_matmul`` on the whole arrays (no
``vmap``: the rules ask for none), keys transposed by ``jnp.swapaxes``, the mask by
``jnp.where`` at ``-jnp.inf``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    scores = jax.lax.batch_matmul(q, jnp.swapaxes(k, 1, 2)) / jnp.sqrt(jnp.float32(q.shape[2]))
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=2)
    return jax.lax.batch_matmul(weights, v)
