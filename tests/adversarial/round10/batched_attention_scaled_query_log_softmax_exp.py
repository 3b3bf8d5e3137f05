"""batched_attention: the student scales the queries by d ** -0.5 before the product, fills the
masked scores with -inf, takes ``jax.nn.log_softmax`` and exponentiates it, inside an ``attend``
mapped by ``jax.vmap`` with ``in_axes=0`` written out.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = (q * q.shape[-1] ** -0.5) @ jnp.swapaxes(k, -1, -2)
    logp = jax.nn.log_softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)
    return jnp.exp(logp) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, in_axes=(0, 0, 0, 0), out_axes=0)(q, k, v, mask)
