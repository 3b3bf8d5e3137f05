"""mixed_precision_step: ``finite`` as ``jax.tree.reduce(jnp.logical_and, ...)`` over each
leaf's ``jnp.isfinite(...).all()``, the update by ``jax.tree.map`` with ``lax.select``
on a broadcast ``finite``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    to16 = lambda a: a.astype(jnp.float16)
    x16, y16, s16 = to16(x), to16(y), to16(loss_scale)

    def scaled(p):
        hid = jnp.tanh(jnp.dot(x16, p["dense"]["w"]) + p["dense"]["b"])
        err = jnp.dot(hid, p["out"]["w"]) - y16
        return jnp.mean(err * err) * s16

    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, jax.grad(scaled)(jax.tree.map(to16, params)))
    finite = jax.tree.reduce(jnp.logical_and, jax.tree.map(lambda a: jnp.isfinite(a).all(), g))

    def update(p, d):
        return lax.select(jnp.broadcast_to(finite, p.shape), p - lr * d, p)

    grow = (good_steps + 1) == period
    return {
        "params": jax.tree.map(update, params, g),
        "loss_scale": lax.select(finite, lax.select(grow, 2.0 * loss_scale, loss_scale), loss_scale / 2),
        "good_steps": lax.select(finite & ~grow, good_steps + 1, jnp.zeros_like(good_steps)),
        "finite": finite,
    }
