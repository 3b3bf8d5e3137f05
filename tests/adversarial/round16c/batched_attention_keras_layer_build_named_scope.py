"""batched_attention: a Keras-style layer: a class with ``build(input_shape)`` setting the scale
from the static feature size and ``call`` doing one example inside ``jax.named_scope``; the
bias of the mask ``jnp.where(mask, 0.0, -1e9)`` added to the scores.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class Attention:
    def __init__(self):
        self.scale = None

    def build(self, input_shape):
        self.scale = float(input_shape[-1]) ** -0.5

    def call(self, q, k, v, mask):
        with jax.named_scope("attention"):
            bias = jnp.where(mask, 0.0, -1e9)
            logits = jnp.matmul(q, k.T) * self.scale + bias
            weights = jax.nn.softmax(logits, axis=-1)
            return jnp.matmul(weights, v)

    def __call__(self, q, k, v, mask):
        if self.scale is None:
            self.build(q.shape)
        return jax.vmap(self.call)(q, k, v, mask)


def attend(q, k, v, mask):
    layer = Attention()
    layer.build(q.shape)
    return layer.call(q, k, v, mask)


def batched_attention(q, k, v, mask):
    return Attention()(q, k, v, mask)
