"""batched_attention: the queries scaled by 1 / sqrt(d) before the product, masked scores at
``-jnp.inf``, the softmax's masked weights set to exactly zero again by ``jnp.where``; ``vmap``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    q = q * jax.lax.rsqrt(jnp.float32(q.shape[-1]))
    weights = jax.nn.softmax(jnp.where(mask, q @ k.T, -jnp.inf), axis=-1)
    return jnp.where(mask, weights, 0.0) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
