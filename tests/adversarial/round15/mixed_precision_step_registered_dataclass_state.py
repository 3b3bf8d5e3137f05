"""mixed_precision_step, honest: the scaler's state a ``dataclasses.dataclass`` registered with
``jax.tree_util.register_dataclass`` (fields ``scale`` and ``count`` as data), updated by a
method with ``jnp.where`` and a ``dataclasses.replace``-free constructor call.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.tree_util.register_dataclass, data_fields=["scale", "count"], meta_fields=["period"])
@dataclasses.dataclass
class Scaler:
    scale: jax.Array
    count: jax.Array
    period: int

    def update(self, finite):
        grow = finite & (self.count + 1 == self.period)
        scale = jnp.where(finite, jnp.where(grow, self.scale * 2, self.scale), self.scale / 2)
        count = jnp.where(finite & ~grow, self.count + 1, 0)
        return Scaler(scale, count.astype(jnp.int32), self.period)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    state = Scaler(loss_scale, good_steps, period)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def loss(p):
        pred = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]
        return jnp.mean(jnp.square(pred - y16)) * state.scale.astype(jnp.float16)

    grads = jax.grad(loss)(jax.tree.map(lambda a: a.astype(jnp.float16), params))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / state.scale, grads)
    finite = jnp.stack([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]).all()
    new = state.update(finite)
    return {"params": jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
            "loss_scale": new.scale, "good_steps": new.count, "finite": finite}
