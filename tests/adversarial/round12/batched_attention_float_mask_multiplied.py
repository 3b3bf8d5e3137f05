"""batched_attention: the mask cast to float32 and multiplied into the exponentials (the
maximum taken over visible keys, the masked exponents zeroed before ``exp`` so none
overflows), vmapped.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    m = mask.astype(jnp.float32)
    s = (q @ k.T) * jax.lax.rsqrt(jnp.float32(q.shape[-1]))
    top = jnp.max(jnp.where(mask, s, -jnp.inf), axis=-1, keepdims=True)
    e = jnp.exp(jnp.where(mask, s - top, 0.0)) * m
    return (e / e.sum(-1, keepdims=True)) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
