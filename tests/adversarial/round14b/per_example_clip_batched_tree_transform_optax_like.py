"""per_example_clip: per-example gradients as a dict tree whose leaves carry the batch in axis 0,
clipped by a hand-written, optax-like ``per_example_global_norm_clip`` transformation (a
``NamedTuple`` of ``init``/``update``) that sums squares over every axis but the first with
``jax.tree_util.tree_reduce``; then a ``tree_map`` mean.

Problem: per_example_clip
Expected: AC
Cases: all
"""
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


class GradientTransformation(NamedTuple):
    init: Callable
    update: Callable


def per_example_global_norm_clip(clip_norm: float) -> GradientTransformation:
    def init(params):
        return ()

    def update(grads, state, params=None):
        squares = jax.tree_util.tree_map(
            lambda g: jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1), grads)
        norms = jnp.sqrt(jax.tree_util.tree_reduce(jnp.add, squares))
        factor = jnp.minimum(1.0, clip_norm / jnp.maximum(norms, clip_norm))

        def scale(g):
            return g * factor.reshape((-1,) + (1,) * (g.ndim - 1))
        return jax.tree_util.tree_map(scale, grads), state

    return GradientTransformation(init, update)


def clipped_mean_grad(w, b, X, y, clip_norm):
    params = {"w": w, "b": b}

    def loss(p, x, t):
        return 0.5 * (x @ p["w"] + p["b"] - t) ** 2

    grads = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(params, X, y)
    clip = per_example_global_norm_clip(clip_norm)
    clipped, _ = clip.update(grads, clip.init(params))
    mean = jax.tree_util.tree_map(lambda g: jnp.mean(g, axis=0), clipped)
    return {"grad_w": mean["w"], "grad_b": mean["b"]}
