"""per_example_clip: the parameters as a dataclass registered with
``jax.tree_util.register_dataclass``, the per-example gradients by
``jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))`` returning that dataclass batched, the norm
over both fields by ``tree_map`` and ``tree_reduce``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import dataclasses
import operator
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.tree_util.register_dataclass, data_fields=["w", "b"], meta_fields=[])
@dataclasses.dataclass
class Linear:
    w: jax.Array
    b: jax.Array


def loss(params: Linear, x, y):
    return 0.5 * (jnp.dot(x, params.w) + params.b - y) ** 2


def clipped_mean_grad(w, b, X, y, clip_norm):
    grads = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(Linear(w, b), X, y)
    sq = jax.tree_util.tree_reduce(
        operator.add,
        jax.tree_util.tree_map(lambda g: jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1), grads))
    factor = 1.0 / jnp.maximum(1.0, jnp.sqrt(sq) / clip_norm)
    clipped = jax.tree_util.tree_map(
        lambda g: g * factor.reshape((-1,) + (1,) * (g.ndim - 1)), grads)
    mean = jax.tree_util.tree_map(lambda g: jnp.mean(g, axis=0), clipped)
    return {"grad_w": mean.w, "grad_b": mean.b}
