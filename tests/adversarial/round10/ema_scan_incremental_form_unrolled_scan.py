"""ema_scan: the update written in its incremental form, m + (1 - decay) * (x_t - m), in a
``lax.scan`` with ``unroll=4`` whose carry starts at ``jnp.zeros_like(x[0])``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = m + (1.0 - decay) * (row - m)
        return m, m

    _, out = jax.lax.scan(step, jnp.zeros_like(x[0]), x, unroll=4)
    return out
