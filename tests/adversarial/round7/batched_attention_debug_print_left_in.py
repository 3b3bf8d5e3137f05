"""batched_attention: an honest vmapped attention with a ``jax.debug.print`` of the weights left
in: the rules refuse debug callbacks, and JAX's own debug callback cannot run with b, t, s and e
as symbols (it reads the shape as a number); the message names the callback.

Problem: batched_attention
Expected: RJ dim_read_as_number
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    s = jnp.where(mask, q @ k.T / jnp.sqrt(q.shape[-1]), -jnp.inf)
    w = jax.nn.softmax(s, axis=-1)
    jax.debug.print("weights {w}", w=w)
    return w @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
