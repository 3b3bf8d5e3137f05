"""batched_attention: one query at a time: the inner ``vmap`` maps a query and its mask row,
scores by ``k @ q_j``, the output row by ``weights @ v`` (``jnp.vecmat``-like), the outer
``vmap`` the batch.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend_one(q_j, k, v, mask_j):
    scores = k @ q_j / jnp.sqrt(jnp.float32(q_j.shape[0]))
    w = jax.nn.softmax(jnp.where(mask_j, scores, -jnp.inf))
    return w @ v


def attend(q, k, v, mask):
    return jax.vmap(attend_one, in_axes=(0, None, None, 0))(q, k, v, mask)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
