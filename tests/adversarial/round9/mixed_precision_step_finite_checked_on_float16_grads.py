"""mixed_precision_step: ``finite`` checked on the scaled float16 gradient before unscaling
(casting to float32 and dividing by a scale of at least 1 cannot make a finite value infinite
or the reverse), with ``jax.tree_util.tree_all``-style code over ``jnp.isfinite``; the loss with
``jnp.float16`` used as a cast function and a ``functools.partial`` of the loss.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


def loss(p, x, y, scale):
    hid = jnp.tanh(jnp.matmul(x, p["dense"]["w"]) + p["dense"]["b"])
    pred = jnp.matmul(hid, p["out"]["w"])
    return ((pred - y) ** 2).mean() * scale


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    p16 = jax.tree.map(jnp.float16, params)
    grad16 = jax.grad(partial(loss, x=jnp.float16(x), y=jnp.float16(y),
                              scale=jnp.float16(loss_scale)))(p16)
    finite = jnp.logical_and.reduce(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(grad16)]))
    unscaled = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grad16)
    applied = jax.tree.map(lambda p, d: p - lr * d, params, unscaled)
    new_params = jax.tree.map(lambda a, b: jnp.where(finite, a, b), applied, params)
    bumped = good_steps + 1
    rolls = bumped == period
    return {
        "params": new_params,
        "loss_scale": jnp.where(finite, jnp.where(rolls, 2.0 * loss_scale, loss_scale), 0.5 * loss_scale),
        "good_steps": jnp.where(finite, jnp.where(rolls, 0, bumped), 0),
        "finite": finite,
    }
