"""batched_attention: ``lax.map`` with ``batch_size=8`` over a function that builds the products
``q[:, None, :] * k[None]`` (t s d elements an example): the batches' body is weighed only where
its scan runs a trip (b >= 8), and there a batch of 8 holds 8 t s d elements; the rest, mapped
apart, holds (b mod 8) t s d where b < 8. Neither is what a batched solution needs.

Problem: batched_attention
Expected: RJ intermediate_too_large
"""
import jax
import jax.numpy as jnp


def attend(xs):
    q, k, v, mask = xs
    s = (q[:, None, :] * k[None, :, :]).sum(-1) / jnp.sqrt(q.shape[-1])
    return jax.nn.softmax(jnp.where(mask, s, -jnp.inf), axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.lax.map(attend, (q, k, v, mask), batch_size=8)
