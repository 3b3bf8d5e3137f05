"""batched_attention: one query against its keys (``k @ q``), ``jax.vmap`` over the queries
and again over the examples, the softmax by ``jax.nn.softmax(where=)`` then zeros.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def one_query(q_row, k, v, mask_row):
    s = k @ q_row / jnp.sqrt(q_row.shape[0])
    w = jax.nn.softmax(s, where=mask_row)
    w = jnp.where(mask_row, w, 0.0)
    return w @ v


attend = jax.vmap(one_query, in_axes=(0, None, None, 0))


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
