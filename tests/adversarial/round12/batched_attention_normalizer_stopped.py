"""batched_attention, wrong: the softmax's denominator under ``lax.stop_gradient`` (to save
its backward pass): the output is right but the gradients with respect to q and k are not.

Problem: batched_attention
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    s = jnp.where(mask, q @ k.T / jnp.sqrt(q.shape[-1]), -jnp.inf)
    e = jnp.exp(s - jax.lax.stop_gradient(s.max(-1, keepdims=True)))
    return (e / jax.lax.stop_gradient(e.sum(-1, keepdims=True))) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
