"""batched_attention: scores by ``jnp.matvec(k, q_row)`` for each query (vmapped over the
queries, then the examples), the weights cleaned by ``jnp.nan_to_num`` after the softmax
(defensive: no row is all masked), outputs by ``jnp.vecmat`` (weights times values).

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def one_query(q, k, v, m):
    s = jnp.matvec(k, q) / jnp.sqrt(jnp.float32(q.shape[0]))
    w = jnp.nan_to_num(jax.nn.softmax(jnp.where(m, s, -jnp.inf)))
    return jnp.vecmat(w, v)


def batched_attention(q, k, v, mask):
    per_example = jax.vmap(one_query, in_axes=(0, None, None, 0))
    return jax.vmap(per_example)(q, k, v, mask)
