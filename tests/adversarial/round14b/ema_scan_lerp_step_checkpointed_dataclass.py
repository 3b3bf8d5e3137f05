"""ema_scan: a ``dataclass`` ``EMA`` with the decay as a field and a ``__call__`` that scans a
``jax.checkpoint``-ed step written as a lerp, ``m + (1 - decay) * (row - m)``; type annotations.

Problem: ema_scan
Expected: AC
Cases: all
"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass
class EMA:
    decay: float

    def step(self, m: jax.Array, row: jax.Array) -> tuple[jax.Array, jax.Array]:
        m = m + (1.0 - self.decay) * (row - m)
        return m, m

    def __call__(self, x: jax.Array) -> jax.Array:
        _, out = jax.lax.scan(jax.checkpoint(self.step), jnp.zeros(x.shape[1:], x.dtype), x)
        return out


def ema(x, decay):
    return EMA(decay)(x)
