"""per_example_clip: honest code with a ``typing.Protocol`` for models, per-example gradients
from ``jax.vmap(jax.grad(...))`` over a ``(w, b)`` tuple, and the factor
``jnp.minimum(1, C / n)`` taken behind a ``where`` on ``n > 0``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
from typing import Protocol

import jax
import jax.numpy as jnp


class Model(Protocol):
    def loss(self, params, xi, yi) -> jax.Array: ...


class Linear:
    def loss(self, params, xi, yi):
        w, b = params
        return 0.5 * (jnp.dot(xi, w) + b - yi) ** 2


def per_example_grads(model: Model, params, X, y):
    return jax.vmap(jax.grad(model.loss), in_axes=(None, 0, 0))(params, X, y)


def clipped_mean_grad(w, b, X, y, clip_norm):
    gw, gb = per_example_grads(Linear(), (w, b), X, y)
    n = jnp.sqrt(jnp.sum(gw ** 2, axis=1) + gb ** 2)
    positive = n > 0
    factor = jnp.where(positive, jnp.minimum(1.0, clip_norm / jnp.where(positive, n, 1.0)), 1.0)
    return {"grad_w": jnp.mean(gw * factor[:, None], axis=0), "grad_b": jnp.mean(gb * factor)}
