"""ema_scan: an ``optax``-style EMA: a NamedTuple state (the average and a step count), an
``update`` function returning the new state, and the scan's step calling it; no debiasing.

Problem: ema_scan
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class EmaState(NamedTuple):
    count: jax.Array
    ema: jax.Array


def init(row: jax.Array) -> EmaState:
    return EmaState(count=jnp.zeros([], jnp.int32), ema=jnp.zeros_like(row))


def update(value: jax.Array, state: EmaState, decay: float) -> EmaState:
    new = (1.0 - decay) * value + decay * state.ema
    return EmaState(count=state.count + 1, ema=new)


def ema(x, decay):
    def step(state, row):
        state = update(row, state, decay)
        return state, state.ema

    _, out = jax.lax.scan(step, init(x[0]), x)
    return out
