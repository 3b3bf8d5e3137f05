"""mixed_precision_step: an optax-like hand-rolled ``DynamicScale`` NamedTuple with
``scale_loss``, ``unscale`` and ``update`` methods (like jmp's), the parameters flattened once with
``jax.tree_util.tree_flatten`` and rebuilt with ``tree_unflatten``; the update uses
``jnp.where`` per leaf.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class DynamicScale(NamedTuple):
    scale: jax.Array
    counter: jax.Array
    period: int

    def scale_loss(self, loss):
        return loss * self.scale.astype(loss.dtype)

    def unscale(self, grads):
        return [g.astype(jnp.float32) / self.scale for g in grads]

    def update(self, finite):
        counter = self.counter + 1
        grow = counter == self.period
        scale = jnp.where(finite, jnp.where(grow, self.scale * 2, self.scale), self.scale / 2)
        counter = jnp.where(finite & ~grow, counter, jnp.zeros_like(counter))
        return DynamicScale(scale, counter, self.period)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    leaves, treedef = jax.tree_util.tree_flatten(params)
    scaler = DynamicScale(loss_scale, good_steps, period)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def loss_of_leaves(ls):
        p = jax.tree_util.tree_unflatten(treedef, ls)
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return scaler.scale_loss(jnp.mean((hid @ p["out"]["w"] - y16) ** 2))

    grads = jax.grad(loss_of_leaves)([l.astype(jnp.float16) for l in leaves])
    g = scaler.unscale(grads)
    finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(a)) for a in g]))
    new_leaves = [jnp.where(finite, p - lr * d, p) for p, d in zip(leaves, g)]
    new_scaler = scaler.update(finite)
    return {"params": jax.tree_util.tree_unflatten(treedef, new_leaves),
            "loss_scale": new_scaler.scale, "good_steps": new_scaler.counter, "finite": finite}
