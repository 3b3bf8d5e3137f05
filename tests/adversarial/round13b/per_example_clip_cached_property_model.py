"""per_example_clip: a small linear-model class whose per-example gradient function is a
``functools.cached_property`` (``jax.vmap`` of ``jax.grad`` built once per object), the clip
and the mean in a method.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


class LinearModel:
    def __init__(self, w, b):
        self.w, self.b = w, b

    @staticmethod
    def loss(w, b, x, y):
        return 0.5 * (x @ w + b - y) ** 2

    @functools.cached_property
    def per_example_grads(self):
        return jax.vmap(jax.grad(LinearModel.loss, argnums=(0, 1)), in_axes=(None, None, 0, 0))

    def clipped_mean(self, X, y, clip_norm):
        gw, gb = self.per_example_grads(self.w, self.b, X, y)
        norm = jnp.sqrt(jnp.sum(gw ** 2, axis=1) + gb ** 2)
        scale = jnp.minimum(1.0, clip_norm / jnp.maximum(norm, clip_norm))
        return {"grad_w": jnp.mean(gw * scale[:, None], axis=0), "grad_b": jnp.mean(gb * scale)}


def clipped_mean_grad(w, b, X, y, clip_norm):
    return LinearModel(w, b).clipped_mean(X, y, clip_norm)
