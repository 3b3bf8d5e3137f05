"""mixed_precision_step, honest: the float16 products by ``lax.dot_general`` with explicit
dimension numbers, the loss by ``jnp.average`` of the squared residual, the result built from a
``NamedTuple`` turned into the dict by ``._asdict()``.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class Step(NamedTuple):
    params: dict
    loss_scale: jax.Array
    good_steps: jax.Array
    finite: jax.Array


def _mm(a, b):
    return lax.dot_general(a, b, (((a.ndim - 1,), (0,)), ((), ())))


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = lambda a: a.astype(jnp.float16)

    def loss(p):
        hid = jnp.tanh(_mm(h(x), p["dense"]["w"]) + p["dense"]["b"])
        return jnp.average((_mm(hid, p["out"]["w"]) - h(y)) ** 2) * h(loss_scale)

    grads = jax.grad(loss)(jax.tree.map(h, params))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.logical_and.reduce(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    grow = finite & (good_steps == period - 1)
    step = Step(params=jax.tree.map(lambda p, d: jnp.where(finite, p - lr * d, p), params, g),
                loss_scale=jnp.where(grow, 2 * loss_scale, jnp.where(finite, loss_scale, loss_scale / 2)),
                good_steps=jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
                finite=finite)
    return step._asdict()
