"""batched_attention: a plausible wrong answer: the scale 1/sqrt(s) (the number of keys)
instead of 1/sqrt(d), otherwise an honest vmapped attention; the examples have s = 3 and d = 1,
s = 2 and d = 4, so only some cases tell.

Problem: batched_attention
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    s = jnp.where(mask, q @ k.T / jnp.sqrt(jnp.float32(k.shape[0])), -jnp.inf)
    return jax.nn.softmax(s, axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
