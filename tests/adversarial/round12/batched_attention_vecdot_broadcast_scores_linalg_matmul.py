"""batched_attention: the NumPy 2 functions: scores by ``jnp.vecdot`` of the queries and keys
broadcast against each other (``q[:, None, :]`` with ``k[None]``, which JAX contracts without
forming the (t, s, d) product), outputs by ``jnp.linalg.matmul``; vmapped.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    s = jnp.vecdot(q[:, None, :], k[None, :, :]) / jnp.sqrt(q.shape[-1])
    w = jax.nn.softmax(jnp.where(mask, s, -jnp.inf), axis=-1)
    return jnp.linalg.matmul(w, v)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
