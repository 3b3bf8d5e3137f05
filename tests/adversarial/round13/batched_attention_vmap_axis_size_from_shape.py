"""batched_attention: ``jax.vmap(attend, in_axes=(0, 0, 0, 0), axis_size=q.shape[0])``, the
axis size read from the (symbolic) shape as the documentation shows it.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = jnp.matmul(q, jnp.matrix_transpose(k)) * (q.shape[-1] ** -0.5)
    return jnp.matmul(jax.nn.softmax(jnp.where(mask, scores, -jnp.inf)), v)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, in_axes=(0, 0, 0, 0), axis_size=q.shape[0])(q, k, v, mask)
