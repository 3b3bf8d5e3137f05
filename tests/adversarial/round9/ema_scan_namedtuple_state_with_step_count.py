"""ema_scan: an optax-like ``EmaState`` NamedTuple (the running mean and a step count the
student keeps but does not use for bias correction) carried by ``lax.scan``; the decay turned
into a float32 array once with ``jnp.asarray``.

Problem: ema_scan
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class EmaState(NamedTuple):
    mean: jax.Array
    count: jax.Array


def ema(x, decay):
    decay = jnp.asarray(decay, dtype=x.dtype)

    def update(state, row):
        mean = decay * state.mean + (1 - decay) * row
        return EmaState(mean, state.count + 1), mean

    init = EmaState(jnp.zeros(x.shape[1:], x.dtype), jnp.zeros((), jnp.int32))
    _, means = jax.lax.scan(update, init, x)
    return means
