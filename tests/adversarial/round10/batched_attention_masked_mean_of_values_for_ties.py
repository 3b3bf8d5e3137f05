"""batched_attention, wrong answer: the student gives each visible key the weight 1 / (number of
visible keys) (the uniform average the first example's second query shows) and forgets the
scores: right only where every visible score is equal.

Problem: batched_attention
Expected: WA
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    w = mask.astype(jnp.float32)
    w = w / w.sum(-1, keepdims=True)
    return w @ v + 0.0 * (q @ k.T) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
