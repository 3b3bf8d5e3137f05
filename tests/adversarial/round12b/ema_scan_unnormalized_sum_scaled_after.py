"""ema_scan: the scan carries the unnormalized sum s_t = decay s_(t-1) + x_t, and the output is
``(1 - decay) * s`` scaled once after the scan; the carry a tuple with a step counter the
output never uses.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def ema(x, decay):
    def step(carry, row):
        s, k = carry
        s = decay * s + row
        return (s, k + 1), s

    (_, _), sums = lax.scan(step, (jnp.zeros(x.shape[1], x.dtype), jnp.int32(0)), x)
    return (1.0 - decay) * sums
