"""mixed_precision_step, honest: a ``NamedTuple`` ``Scaler(scale, count)`` with methods
``scale_loss``, ``unscale`` and ``adjust(finite, period)``, and an ``apply_if_finite`` helper
that returns the new params or the old ones through ``jax.tree.map`` of ``jnp.where``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Scaler(NamedTuple):
    scale: jax.Array
    count: jax.Array

    def scale_loss(self, loss):
        return loss * self.scale.astype(loss.dtype)

    def unscale(self, grads):
        return jax.tree.map(lambda g: g.astype(jnp.float32) / self.scale, grads)

    def adjust(self, finite, period):
        grow = finite & (self.count + 1 == period)
        scale = jnp.where(finite, jnp.where(grow, self.scale * 2, self.scale), self.scale / 2)
        count = jnp.where(finite & ~grow, self.count + 1, 0).astype(jnp.int32)
        return Scaler(scale, count)


def apply_if_finite(params, updates, finite):
    return jax.tree.map(lambda p, u: jnp.where(finite, p + u, p), params, updates)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    scaler = Scaler(loss_scale, good_steps)
    p16, x16, y16 = jax.tree.map(lambda a: a.astype(jnp.float16), (params, x, y))

    def loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return scaler.scale_loss(jnp.mean(jnp.square(hid @ p["out"]["w"] - y16)))

    grads = scaler.unscale(jax.grad(loss)(p16))
    finite = jax.tree.reduce(jnp.logical_and, jax.tree.map(lambda g: jnp.isfinite(g).all(), grads))
    new = apply_if_finite(params, jax.tree.map(lambda g: -lr * g, grads), finite)
    scaler = scaler.adjust(finite, period)
    return {"params": new, "loss_scale": scaler.scale, "good_steps": scaler.count, "finite": finite}
