"""ema_scan, honest: ``lax.scan(..., reverse=True, unroll=4)`` over the sequence flipped in time,
its outputs flipped back.

Problem: ema_scan
Expected: AC
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    _, out = jax.lax.scan(step, jnp.zeros(x.shape[1:], x.dtype), jnp.flip(x, 0), reverse=True, unroll=4)
    return jnp.flip(out, 0)
