"""ema_scan: the rows fed to the scan as ``(1, d)`` slices (``x[:, None, :]``), the carry a
``(1, d)`` array, under ``jax.jit`` with ``static_argnames=("decay",)``; the stacked ``(T, 1, d)``
output squeezed back.

Problem: ema_scan
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("decay",))
def _ema(x, decay):
    def step(m, row):
        nxt = decay * m + (1 - decay) * row
        return nxt, nxt

    _, out = jax.lax.scan(step, jnp.zeros((1, x.shape[1]), x.dtype), x[:, None, :])
    return out[:, 0, :]


def ema(x, decay):
    return _ema(x, decay=decay)
