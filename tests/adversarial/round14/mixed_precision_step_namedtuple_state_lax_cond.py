"""mixed_precision_step: the state a ``NamedTuple`` (params, scale, counter) that ``lax.cond`` on
``finite`` returns from either branch, the inner doubling a ``jnp.where``; the dict built at the
end.

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class State(NamedTuple):
    params: Any
    loss_scale: jax.Array
    good_steps: jax.Array


def _forward(p, x):
    return jnp.tanh(x @ p["dense"]["w"] + p["dense"]["b"]) @ p["out"]["w"]


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    half = jnp.float16
    p16 = jax.tree.map(lambda a: a.astype(half), params)
    g16 = jax.grad(lambda p: jnp.mean((_forward(p, x.astype(half)) - y.astype(half)) ** 2)
                   * loss_scale.astype(half))(p16)
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, g16)
    finite = jnp.all(jnp.asarray([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))

    def good(state):
        grow = state.good_steps + 1 == period
        return State(jax.tree.map(lambda p, d: p - lr * d, state.params, g),
                     jnp.where(grow, state.loss_scale * 2, state.loss_scale),
                     jnp.where(grow, 0, state.good_steps + 1).astype(jnp.int32))

    def bad(state):
        return State(state.params, state.loss_scale / 2, jnp.zeros((), jnp.int32))

    out = lax.cond(finite, good, bad, State(params, loss_scale, good_steps))
    return {"params": out.params, "loss_scale": out.loss_scale, "good_steps": out.good_steps,
            "finite": finite}
