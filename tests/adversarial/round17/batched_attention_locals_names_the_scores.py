"""batched_attention: a local-attention port whose masked scores are kept in a variable named
``locals`` before the softmax, mapped over the batch with ``jax.vmap``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    def one(q, k, v, mask):
        locals = jnp.where(mask, q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1])), -jnp.inf)
        return jax.nn.softmax(locals, axis=-1) @ v

    return jax.vmap(one)(q, k, v, mask)
