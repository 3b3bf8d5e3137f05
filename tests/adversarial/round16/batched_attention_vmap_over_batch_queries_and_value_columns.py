"""batched_attention, honest: three ``vmap``s: over the examples, over each example's queries
(``in_axes=(0, None, None, 0)``), and over the columns of v (``in_axes=1``, ``out_axes=0`` then
moved last), so the innermost function is one query against one column of values.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _one(qr, k, vcol, mr):
    s = k @ qr / jnp.sqrt(jnp.float32(qr.shape[0]))
    w = jax.nn.softmax(s, where=mr)
    w = jnp.where(mr, w, 0.0)
    return w @ vcol


def attend(q, k, v, mask):
    per_column = jax.vmap(_one, in_axes=(None, None, 1, None))
    per_query = jax.vmap(per_column, in_axes=(0, None, None, 0))
    return per_query(q, k, v, mask)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
