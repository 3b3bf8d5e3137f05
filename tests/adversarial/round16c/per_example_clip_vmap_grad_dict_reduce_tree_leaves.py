"""per_example_clip: ``jax.vmap(jax.grad(loss))`` over a dict of params, the squared norm of
each example's gradient as ``functools.reduce(operator.add, ...)`` of per-leaf sums over every
axis but the first, ``jax.tree_util.tree_map`` of the clip and the mean over two trees.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import functools
import operator

import jax
import jax.numpy as jnp


def clipped_mean_grad(w, b, X, y, clip_norm):
    def loss(params, x, t):
        return 0.5 * (jnp.dot(x, params["w"]) + params["b"] - t) ** 2

    grads = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))({"w": w, "b": b}, X, y)
    sq = functools.reduce(operator.add, [
        jnp.sum(g ** 2, axis=tuple(range(1, g.ndim))) for g in jax.tree_util.tree_leaves(grads)])
    norm = jnp.sqrt(sq)
    denom = jnp.maximum(1.0, norm / clip_norm)
    clipped = jax.tree_util.tree_map(
        lambda g: g / denom.reshape((-1,) + (1,) * (g.ndim - 1)), grads)
    mean = jax.tree_util.tree_map(lambda g: g.mean(axis=0), clipped)
    return {"grad_w": mean["w"], "grad_b": mean["b"]}
