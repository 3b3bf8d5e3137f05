"""ema_scan: a frozen dataclass holding the decay, whose ``__call__`` runs ``lax.scan`` with
``unroll=4`` (JAX unrolls the body four times inside the loop, whatever T is) and a ``step``
method as the body.

Problem: ema_scan
Expected: AC
Cases: all
"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class MovingAverage:
    decay: float

    def step(self, m: jax.Array, row: jax.Array):
        m = self.decay * m + (1.0 - self.decay) * row
        return m, m

    def __call__(self, x: jax.Array) -> jax.Array:
        init = jnp.zeros(x.shape[1:], x.dtype)
        _, ms = jax.lax.scan(self.step, init, x, unroll=4)
        return ms


def ema(x, decay):
    return MovingAverage(decay)(x)
