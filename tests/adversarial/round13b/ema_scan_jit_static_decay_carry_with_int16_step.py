"""ema_scan: ``jax.jit`` with ``static_argnames=("decay",)``; the carry a tuple of the average
and an ``int16`` step counter (kept for a debugging print, not used by the output), the step's
coefficients as ``jnp.float32`` constants.

Problem: ema_scan
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("decay",))
def ema(x, decay):
    keep = jnp.float32(decay)
    take = jnp.float32(1.0 - decay)

    def step(carry, row):
        m, t = carry
        m = keep * m + take * row
        return (m, t + jnp.int16(1)), m

    (_, steps), out = jax.lax.scan(step, (jnp.zeros_like(x[0]), jnp.int16(0)), x)
    return out
