"""Honest ema for ema_scan: an ordinary scan over time whose step writes each row into a
buffer made with jax.new_ref; the scan returns nothing, the output is read from the buffer.
The ref writes are uses: the scan computes the output.

Expected: AC
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    buf = jax.new_ref(jnp.zeros_like(x))

    def step(m, t):
        m = decay * m + (1.0 - decay) * x[t]
        buf[t] = m
        return m, None

    jax.lax.scan(step, jnp.zeros_like(x[0]), jnp.arange(x.shape[0]))
    return buf[...]
