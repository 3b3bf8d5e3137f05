"""batched_attention: scores and values by ``jnp.einsum`` written with ellipses, the mask by
``jnp.where(mask, s, -jnp.inf)`` then ``jax.nn.softmax``, mapped by ``jax.vmap`` with
``in_axes=(0, 0, 0, 0)`` spelled out.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    d = q.shape[-1]
    s = jnp.einsum("...td,...sd->...ts", q, k) / jnp.sqrt(d)
    w = jax.nn.softmax(jnp.where(mask, s, -jnp.inf), axis=-1)
    return jnp.einsum("...ts,...se->...te", w, v)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, in_axes=(0, 0, 0, 0))(q, k, v, mask)
