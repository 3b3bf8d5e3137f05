"""batched_attention: one query's attention as a function of a score row (``k @ q``), mapped over
the queries by an inner ``vmap`` (keys and values shared: ``in_axes=(0, None, None, 0)``) and
over the batch by an outer one; ``jax.nn.softmax(where=)`` per row.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend_one(qj, k, v, mj):
    s = (k @ qj) / jnp.sqrt(jnp.float32(qj.shape[0]))
    w = jax.nn.softmax(jnp.where(mj, s, -jnp.inf), where=mj)
    return jnp.where(mj, w, 0.0) @ v


def batched_attention(q, k, v, mask):
    per_example = jax.vmap(attend_one, in_axes=(0, None, None, 0))
    return jax.vmap(per_example)(q, k, v, mask)
