"""ema_scan, honest: the reference's scan with ``unroll=True`` (a hint to the compiler to put every
step in one iteration; the program is still one scan of length T).

Problem: ema_scan
Expected: AC
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    return jax.lax.scan(step, jnp.zeros_like(x[0]), x, unroll=True)[1]
