"""ema_scan: the rows scaled by ``1 - decay`` once, before the scan, and the step adding the
scaled row to the decayed average (``m = decay * m + row``), as an optimizer that folds the
constant in writes it.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    scaled = (1.0 - decay) * x

    def step(m, row):
        m = decay * m + row
        return m, m

    return jax.lax.scan(step, jnp.zeros_like(x[0]), scaled)[1]
