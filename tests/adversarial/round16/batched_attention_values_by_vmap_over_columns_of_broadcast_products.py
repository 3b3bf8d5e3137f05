"""batched_attention, mistake on the size bound: the output's columns computed by a ``vmap``
over the columns of v, each as ``jnp.sum(weights * v_col[None, :], axis=-1)``: vmapped, that
product is a (b, t, s, e) value.

Problem: batched_attention
Expected: RJ intermediate_too_large
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    w = jax.nn.softmax(jnp.where(mask, q @ k.T / jnp.sqrt(q.shape[-1]), -jnp.inf), axis=-1)
    column = lambda vc: jnp.sum(w * vc[None, :], axis=-1)
    return jax.vmap(column, in_axes=1, out_axes=1)(v)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
