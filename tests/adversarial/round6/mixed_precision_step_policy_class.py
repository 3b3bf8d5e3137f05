"""mixed_precision_step: a jmp-like ``Policy`` (param, compute and output dtypes) with cast
helpers over trees, and a ``DynamicLossScale`` class with ``scale``/``unscale``/``adjust``
methods returning new instances; the update by ``jax.tree.map``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""

import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Policy:
    param_dtype: object = jnp.float32
    compute_dtype: object = jnp.float16

    def cast_to_compute(self, tree):
        return jax.tree.map(lambda a: jnp.asarray(a, dtype=self.compute_dtype), tree)

    def cast_to_param(self, tree):
        return jax.tree.map(lambda a: jnp.asarray(a, dtype=self.param_dtype), tree)


@dataclasses.dataclass(frozen=True)
class DynamicLossScale:
    loss_scale: jax.Array
    counter: jax.Array
    period: int

    def scale(self, loss):
        return loss * self.loss_scale.astype(loss.dtype)

    def unscale(self, grads):
        return jax.tree.map(lambda g: g / self.loss_scale, grads)

    def adjust(self, finite):
        one_more = self.counter + 1
        doubles = one_more == self.period
        scale = jnp.where(finite, jnp.where(doubles, self.loss_scale * 2, self.loss_scale),
                          self.loss_scale / 2)
        counter = jnp.where(finite, jnp.where(doubles, 0, one_more), 0)
        return DynamicLossScale(scale, counter.astype(jnp.int32), self.period)


def _all_finite(tree):
    leaves = jax.tree.leaves(jax.tree.map(lambda a: jnp.all(jnp.isfinite(a)), tree))
    return jnp.stack(leaves).all()


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    policy = Policy()
    scaler = DynamicLossScale(loss_scale, good_steps, period)
    x, y = policy.cast_to_compute((x, y))

    def loss_fn(p):
        hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
        pred = hid @ p["out"]["w"]
        return scaler.scale(((pred - y) ** 2).mean())

    grads = jax.grad(loss_fn)(policy.cast_to_compute(params))
    grads = scaler.unscale(policy.cast_to_param(grads))
    finite = _all_finite(grads)
    stepped = jax.tree.map(lambda p, g: p - lr * g, params, grads)
    new = jax.tree.map(lambda a, b: jnp.where(finite, a, b), stepped, params)
    scaler = scaler.adjust(finite)
    return {"params": new, "loss_scale": scaler.loss_scale, "good_steps": scaler.counter,
            "finite": finite}
