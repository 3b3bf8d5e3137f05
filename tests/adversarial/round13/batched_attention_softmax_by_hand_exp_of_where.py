"""batched_attention: the softmax written out: the row's largest visible score (stopped), the
exponentials of ``jnp.where(mask, scores - top, -jnp.inf)`` (masked keys exactly zero, no
infinity to differentiate), divided by their row sum; ``vmap`` over the batch.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    top = jax.lax.stop_gradient(jnp.max(jnp.where(mask, scores, -jnp.inf), axis=-1, keepdims=True))
    e = jnp.exp(jnp.where(mask, scores - top, -jnp.inf))
    return (e / jnp.sum(e, axis=-1, keepdims=True)) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
