"""batched_attention: ``map`` of the one-example function over the rows of q, k, v and mask,
stacked: a Python loop over b hidden in the builtin; iterating over a first axis that is a
symbol reads it as a number.

Problem: batched_attention
Expected: RJ dim_read_as_number
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    s = jnp.where(mask, q @ k.T / jnp.sqrt(q.shape[-1]), -jnp.inf)
    return jax.nn.softmax(s) @ v


def batched_attention(q, k, v, mask):
    return jnp.stack(list(map(attend, q, k, v, mask)))
