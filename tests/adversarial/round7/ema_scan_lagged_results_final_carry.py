"""ema_scan: a scan that emits the average before each row (the carry it received), so its results
lag by one: the output is those results from the second on, with the final carry appended as the
last row.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, xt):
        new = decay * m + (1 - decay) * xt
        return new, m  # emit the average before this row

    last, before = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return jnp.concatenate([before[1:], last[None, :]], axis=0)
