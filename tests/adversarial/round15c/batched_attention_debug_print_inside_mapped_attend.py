"""batched_attention: a ``jax.debug.print`` of each example's largest visible score inside
``attend`` (run once per example under ``jax.vmap``, whose batch is a symbol when traced), with a
``"{:.3f}"`` format spec.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    masked = jnp.where(mask, scores, -jnp.inf)
    jax.debug.print("top visible score {:.3f}", jnp.max(masked))
    return jax.nn.softmax(masked, axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
