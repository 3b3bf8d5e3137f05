"""mixed_precision_step: ``from __future__ import annotations`` with ``jax.Array`` hints, the float16
copies by ``jax.tree.map``, ``finite`` folded over ``jax.tree.leaves`` with
``functools.reduce(jnp.logical_and, ...)``, the new scale and count from ``jnp.where`` with
Python scalars.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp

HALF = jnp.float16


def _loss16(p: dict, x: jax.Array, y: jax.Array, scale: jax.Array) -> jax.Array:
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    pred = hid @ p["out"]["w"]
    return jnp.mean(jnp.square(pred - y)) * scale


def mixed_precision_step(params, x, y, loss_scale: jax.Array, good_steps: jax.Array,
                         lr: float, period: int) -> dict:
    p16 = jax.tree.map(lambda a: a.astype(HALF), params)
    g16 = jax.grad(_loss16)(p16, x.astype(HALF), y.astype(HALF), loss_scale.astype(HALF))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    finite = functools.reduce(jnp.logical_and,
                              [jnp.isfinite(leaf).all() for leaf in jax.tree.leaves(g)])
    new_params = jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g)
    bumped = good_steps + 1
    grow = bumped == period
    new_scale = jnp.where(finite, jnp.where(grow, loss_scale * 2.0, loss_scale), loss_scale * 0.5)
    new_good = jnp.where(finite & ~grow, bumped, 0).astype(jnp.int32)
    return {"params": new_params, "loss_scale": new_scale, "good_steps": new_good,
            "finite": finite}
