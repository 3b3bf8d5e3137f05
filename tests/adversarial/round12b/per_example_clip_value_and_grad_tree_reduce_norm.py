"""per_example_clip: ``jax.vmap(jax.value_and_grad(loss))`` over a params dict with
``in_axes=(None, 0, 0)`` (the losses dropped), each example's norm by
``jax.tree_util.tree_reduce`` of the squared leaves, the clip by ``tree_map`` with a
per-example factor, the mean by a second ``tree_map``.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import operator

import jax
import jax.numpy as jnp


def loss(params, x, y):
    return 0.5 * (jnp.vdot(x, params["w"]) + params["b"] - y) ** 2


def clipped_mean_grad(w, b, X, y, clip_norm):
    _, grads = jax.vmap(jax.value_and_grad(loss), in_axes=(None, 0, 0))({"w": w, "b": b}, X, y)
    sq = jax.tree_util.tree_reduce(
        operator.add, jax.tree.map(lambda g: jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1), grads))
    factor = 1.0 / jnp.maximum(1.0, jnp.sqrt(sq) / clip_norm)
    clipped = jax.tree.map(lambda g: g * factor.reshape((-1,) + (1,) * (g.ndim - 1)), grads)
    mean = jax.tree.map(lambda g: jnp.mean(g, axis=0), clipped)
    return {"grad_w": mean["w"], "grad_b": mean["b"]}
