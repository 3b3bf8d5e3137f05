"""per_example_clip: an optax-like chain of gradient transformations written by hand (a list
of functions folded with ``functools.reduce``): per-example gradients from ``vmap(grad)`` over
a ``(w, b)`` tuple, then ``clip_per_example`` and ``mean_over_batch`` as the chain's links.

Problem: per_example_clip
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def clip_per_example(clip_norm):
    def apply(grads):
        leaves = jax.tree_util.tree_leaves(grads)
        sq = sum(jnp.sum(jnp.reshape(l, (l.shape[0], -1)) ** 2, axis=1) for l in leaves)
        div = jnp.maximum(1.0, jnp.sqrt(sq) / clip_norm)
        return jax.tree_util.tree_map(lambda l: l / div.reshape((-1,) + (1,) * (l.ndim - 1)), grads)
    return apply


def mean_over_batch(grads):
    return jax.tree_util.tree_map(lambda l: jnp.mean(l, axis=0), grads)


def chain(*links):
    return lambda g: functools.reduce(lambda acc, f: f(acc), links, g)


def clipped_mean_grad(w, b, X, y, clip_norm):
    def loss(params, xi, yi):
        w, b = params
        return 0.5 * (xi @ w + b - yi) ** 2

    per_ex = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))((w, b), X, y)
    gw, gb = chain(clip_per_example(clip_norm), mean_over_batch)(per_ex)
    return {"grad_w": gw, "grad_b": gb}
