"""ema_scan: a ``lax.scan`` with ``reverse=True`` over the rows reversed (``x[::-1]``), so the
steps still run from row 0 to row T - 1; the stacked averages reversed back.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    _, out = jax.lax.scan(step, jnp.zeros_like(x[0]), x[::-1], reverse=True)
    return out[::-1]
