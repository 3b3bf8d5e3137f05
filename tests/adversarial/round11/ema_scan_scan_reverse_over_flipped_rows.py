"""ema_scan: ``lax.scan(..., reverse=True)`` over the rows flipped, ``x[::-1]``: the reversed
scan meets ``x[0]`` first, and its stacked outputs, flipped back, are m in time order.

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
