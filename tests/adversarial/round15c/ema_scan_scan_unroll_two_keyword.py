"""ema_scan: ``jax.lax.scan(step, init, x, unroll=2)``, two steps to a trip of the compiled loop
(the number of rows may be odd), the step a named lambda returning the mean twice.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    step = lambda m, row: (decay * m + (1 - decay) * row,) * 2
    _, out = jax.lax.scan(step, jnp.zeros_like(x[0]), x, unroll=2)
    return out
