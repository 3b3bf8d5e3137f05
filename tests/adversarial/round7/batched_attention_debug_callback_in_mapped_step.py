"""batched_attention: the vmapped attention with a ``jax.debug.callback`` that only looks at the
weights: traced with b a symbol like a ``jax.debug.print``, and refused by ``no_callbacks``,
which allows a print but not a callback.

Problem: batched_attention
Expected: RJ callback_used
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    s = jnp.where(mask, q @ k.T / jnp.sqrt(q.shape[-1]), -jnp.inf)
    w = jax.nn.softmax(s, axis=-1)
    jax.debug.callback(lambda a: None, w)  # only looks, returns nothing
    return w @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
