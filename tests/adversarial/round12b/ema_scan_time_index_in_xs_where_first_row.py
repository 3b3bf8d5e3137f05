"""ema_scan: the scan's xs a tuple of the rows and their index ``jnp.arange(x.shape[0])``, the
step choosing ``(1 - decay) * row`` at t = 0 with ``jnp.where`` (the carry starts as zeros
anyway, so both branches agree there) and the recurrence after.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def ema(x, decay):
    def step(m, inp):
        row, t = inp
        new = jnp.where(t == 0, (1 - decay) * row, decay * m + (1 - decay) * row)
        return new, new

    _, out = lax.scan(step, jnp.zeros_like(x[0]), (x, jnp.arange(x.shape[0])))
    return out
