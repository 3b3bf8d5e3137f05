"""ema_scan: (1 - decay) * x computed once outside the loop and fed to a ``lax.scan`` as its
rows, the step m <- decay * m + row with ``unroll=8``, the initial carry ``jnp.zeros_like(x[0])``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def ema(x, decay):
    def step(m, row):
        m = decay * m + row
        return m, m

    _, out = lax.scan(step, jnp.zeros_like(x[0]), (1.0 - decay) * x, unroll=8)
    return out
