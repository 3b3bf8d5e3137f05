"""ema_scan: honest code: a plain ``lax.scan`` with ``unroll=4`` (a speed habit), the coefficient
``1 - decay`` computed once.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    keep = 1.0 - decay

    def step(m, row):
        new = decay * m + keep * row
        return new, new

    _, out = jax.lax.scan(step, jnp.zeros_like(x[0]), x, unroll=4)
    return out
