"""mixed_precision_step: optax-like helpers (``scale_loss``, ``unscale``, ``all_finite``,
``select_tree``) over pytrees with ``jax.tree_util``; the scale multiplied by the reciprocal of
the loss scale (a product with a value computed from ``loss_scale`` only, not from the data).

Problem: mixed_precision_step
Expected: AC
"""

import functools

import jax
import jax.numpy as jnp
from jax import tree_util


def cast(tree, dtype):
    return tree_util.tree_map(lambda a: a.astype(dtype), tree)


def unscale(grads, loss_scale):
    inv = 1.0 / loss_scale
    return tree_util.tree_map(lambda g: g.astype(jnp.float32) * inv, grads)


def all_finite(tree):
    leaves = [jnp.all(jnp.isfinite(a)) for a in tree_util.tree_leaves(tree)]
    return functools.reduce(jnp.logical_and, leaves)


def select_tree(pred, on_true, on_false):
    return tree_util.tree_map(lambda a, b: jnp.where(pred, a, b), on_true, on_false)


def forward(p, x):
    return jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    x16, y16 = cast((x, y), jnp.float16)
    scale16 = loss_scale.astype(jnp.float16)

    def scaled(p):
        return jnp.mean((forward(p, x16) - y16) ** 2) * scale16

    g = unscale(jax.grad(scaled)(cast(params, jnp.float16)), loss_scale)
    ok = all_finite(g)
    updated = tree_util.tree_map(lambda p, d: p - lr * d, params, g)
    at_period = good_steps >= period - 1
    return {
        "params": select_tree(ok, updated, params),
        "loss_scale": jnp.where(ok, jnp.where(at_period, loss_scale * 2, loss_scale), loss_scale / 2),
        "good_steps": jnp.where(ok, jnp.where(at_period, 0, good_steps + 1), 0).astype(jnp.int32),
        "finite": ok,
    }
