"""batched_attention, honest: a framework-free ``Attention`` class with a ``__call__`` for one
example (the scale kept as an attribute), an instance passed to ``jax.vmap`` as the function.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class Attention:
    def __init__(self, d):
        self.scale = 1.0 / d ** 0.5

    def __call__(self, q, k, v, mask):
        scores = self.scale * (q @ k.T)
        scores = jnp.where(mask, scores, jnp.finfo(scores.dtype).min)
        weights = jax.nn.softmax(scores, axis=-1) * mask
        return weights @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(Attention(q.shape[-1]))(q, k, v, mask)
