"""mixed_precision_step: the scaler's state in a ``NamedTuple`` updated by ``_replace``; the
params, the counter and the scale chosen by ``lax.select`` (the flag broadcast to each leaf's
shape by hand).

Problem: mixed_precision_step
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class ScalerState(NamedTuple):
    scale: jax.Array
    good: jax.Array


def _next(state, finite, period):
    grow = state.good + 1 == period
    ok_scale = lax.select(grow, state.scale * 2, state.scale)
    ok_good = lax.select(grow, jnp.zeros_like(state.good), state.good + 1)
    return state._replace(scale=lax.select(finite, ok_scale, state.scale / 2),
                          good=lax.select(finite, ok_good, jnp.zeros_like(state.good)))


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    state = ScalerState(loss_scale, good_steps.astype(jnp.int32))
    half = jax.tree_util.tree_map(lambda a: a.astype(jnp.float16), params)
    x16, y16 = x.astype(jnp.float16), y.astype(jnp.float16)

    def scaled_loss(p):
        hid = jnp.tanh(x16 @ p["dense"]["w"] + p["dense"]["b"])
        return jnp.mean((hid @ p["out"]["w"] - y16) ** 2) * state.scale.astype(jnp.float16)

    g = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32) / state.scale,
                               jax.grad(scaled_loss)(half))
    finite = jnp.all(jnp.stack([jnp.all(jnp.isfinite(a)) for a in jax.tree_util.tree_leaves(g)]))
    new_params = jax.tree_util.tree_map(
        lambda p, d: lax.select(jnp.broadcast_to(finite, p.shape), p - lr * d, p), params, g)
    state = _next(state, finite, period)
    return {"params": new_params, "loss_scale": state.scale, "good_steps": state.good,
            "finite": finite}
