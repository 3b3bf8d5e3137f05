"""batched_attention: an honest vmapped attention with a ``jax.debug.print`` of the weights left
in. The rules allow jax.debug.print (it computes nothing), but JAX unrolls a debug callback once
per index of the vmap's axis, which cannot run with b a symbol; the judge binds it once with the
whole batch while it traces, so it prints every example's weights at once.

Problem: batched_attention
Expected: AC
Cases: all
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
