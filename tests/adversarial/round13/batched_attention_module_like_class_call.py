"""batched_attention: a module-like class (no flax) whose ``__call__`` attends one example, an
instance built from d and mapped with ``jax.vmap(layer)``; masked scores at
``jnp.finfo(jnp.float32).min`` and the weights of masked keys zeroed after the softmax.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class Attention:
    def __init__(self, d):
        self.scale = 1.0 / jnp.sqrt(jnp.float32(d))

    def scores(self, q, k):
        return (q @ k.T) * self.scale

    def __call__(self, q, k, v, mask):
        s = jnp.where(mask, self.scores(q, k), jnp.finfo(jnp.float32).min)
        w = jnp.where(mask, jax.nn.softmax(s, axis=-1), 0.0)
        return w @ v


def batched_attention(q, k, v, mask):
    layer = Attention(q.shape[-1])
    return jax.vmap(layer)(q, k, v, mask)
