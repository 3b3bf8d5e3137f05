"""ema_scan: the scan carries m_t / (1 - decay) instead of m_t (c_t = decay c_(t-1) + x_t, the
student's algebra to save a product a step), and the stacked carries are multiplied by
1 - decay after the loop.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def ema(x, decay):
    def step(c, row):
        c = decay * c + row
        return c, c

    _, cs = lax.scan(step, jnp.zeros_like(x[0]), x)
    return (1.0 - decay) * cs
