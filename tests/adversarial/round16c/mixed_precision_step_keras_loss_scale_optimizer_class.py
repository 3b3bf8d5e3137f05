"""mixed_precision_step: ported from Keras' ``LossScaleOptimizer``: a ``DynamicLossScale``
class with ``scale_loss``, ``unscale``, ``update`` methods, ``jax.tree_util.tree_map`` over
several trees for the update, and ``jnp.array`` of a Python list of per-leaf ``jnp.all``\\ s.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class DynamicLossScale:
    def __init__(self, scale, counter, period):
        self.scale = scale
        self.counter = counter
        self.period = period

    def scale_loss(self, loss):
        return loss * self.scale.astype(loss.dtype)

    def unscale(self, grads):
        return jax.tree_util.tree_map(lambda g: g.astype(jnp.float32) / self.scale, grads)

    def update(self, finite):
        grow = self.counter + 1 == self.period
        scale = jnp.where(finite, jnp.where(grow, self.scale * 2.0, self.scale), self.scale * 0.5)
        counter = jnp.where(finite & ~grow, self.counter + 1, 0)
        return scale.astype(jnp.float32), counter.astype(jnp.int32)


def all_finite(tree):
    return jnp.all(jnp.array([jnp.all(jnp.isfinite(g)) for g in jax.tree_util.tree_leaves(tree)]))


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    ls = DynamicLossScale(loss_scale, good_steps, period)
    p16 = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def loss_fn(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        pred = hid @ p["out"]["w"]
        return ls.scale_loss(jnp.mean(jnp.square(pred - y16)))

    grads = ls.unscale(jax.grad(loss_fn)(p16))
    finite = all_finite(grads)
    new_params = jax.tree_util.tree_map(
        lambda p, g, keep: jnp.where(keep, p - lr * g, p),
        params, grads, jax.tree_util.tree_map(lambda _: finite, params))
    scale, counter = ls.update(finite)
    return {"params": new_params, "loss_scale": scale, "good_steps": counter, "finite": finite}
