"""mixed_precision_step: a ``jmp``-style policy written inline (a frozen dataclass with
``cast_to_compute`` and ``cast_to_param``) and a ``DynamicLossScale`` NamedTuple with
``scale``, ``unscale`` and ``adjust`` methods; ``finite`` by ``functools.reduce`` of
``jnp.logical_and`` over the leaves.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
import dataclasses
import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Policy:
    param_dtype: object = jnp.float32
    compute_dtype: object = jnp.float16

    def cast_to_compute(self, tree):
        return jax.tree_util.tree_map(lambda a: a.astype(self.compute_dtype), tree)

    def cast_to_param(self, tree):
        return jax.tree_util.tree_map(lambda a: a.astype(self.param_dtype), tree)


class DynamicLossScale(NamedTuple):
    loss_scale: jax.Array
    counter: jax.Array
    period: int

    def scale(self, loss):
        return loss * self.loss_scale.astype(loss.dtype)

    def unscale(self, grads):
        return jax.tree_util.tree_map(lambda g: g.astype(jnp.float32) / self.loss_scale, grads)

    def adjust(self, finite):
        grow = self.counter + 1 == self.period
        scale = jnp.where(finite, jnp.where(grow, self.loss_scale * 2, self.loss_scale),
                          self.loss_scale / 2)
        counter = jnp.where(finite & ~grow, self.counter + 1, 0).astype(jnp.int32)
        return self._replace(loss_scale=scale, counter=counter)


def all_finite(tree):
    leaves = [jnp.all(jnp.isfinite(leaf)) for leaf in jax.tree_util.tree_leaves(tree)]
    return functools.reduce(jnp.logical_and, leaves)


def mse(p, x, y):
    hid = jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"])
    return jnp.mean((hid @ p["out"]["w"] - y) ** 2)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    policy = Policy()
    ls = DynamicLossScale(loss_scale, good_steps, period)
    p16, x16, y16 = policy.cast_to_compute((params, x, y))
    grads = jax.grad(lambda p: ls.scale(mse(p, x16, y16)))(p16)
    grads = ls.unscale(grads)
    finite = all_finite(grads)
    stepped = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    new_params = jax.tree_util.tree_map(lambda a, b: jnp.where(finite, a, b), stepped, params)
    ls = ls.adjust(finite)
    return {"params": policy.cast_to_param(new_params), "loss_scale": ls.loss_scale,
            "good_steps": ls.counter, "finite": finite}
