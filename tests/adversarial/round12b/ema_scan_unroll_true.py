"""ema_scan: an honest ``lax.scan`` with ``unroll=True`` (fully unrolled where the length is a
number). T is a symbol when the judge traces, so the length has no value to unroll by.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1 - decay) * row
        return m, m

    return jax.lax.scan(step, jnp.zeros_like(x[0]), x, unroll=True)[1]
