"""ema_scan: a student's module: an ``EMA`` class whose ``__call__`` runs the scan, its step a
method wrapped in ``jax.named_call``, an ``lru_cache``d helper that gives the carry's shape from
``x.shape[1:]`` (d, a number here; T is never read), an assert on the rank and a print.

Problem: ema_scan
Expected: AC
Cases: all
"""
from functools import lru_cache

import jax
import jax.numpy as jnp


@lru_cache(maxsize=8)
def carry_shape(row_shape: tuple) -> tuple:
    return tuple(row_shape)


class EMA:
    def __init__(self, decay: float):
        self.decay = decay

    def step(self, m, row):
        m = self.decay * m + (1.0 - self.decay) * row
        return m, m

    def __call__(self, x):
        init = jnp.zeros(carry_shape(x.shape[1:]), x.dtype)
        _, out = jax.lax.scan(jax.named_call(self.step, name="ema_step"), init, x)
        return out


def ema(x, decay):
    assert x.ndim == 2, "x is (T, d)"
    print("ema over rows of width", x.shape[1])
    return EMA(decay)(x)
