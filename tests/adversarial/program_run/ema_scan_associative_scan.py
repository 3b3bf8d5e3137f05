"""ema_scan: the recurrence as ``jax.lax.associative_scan`` over (decay power, value) pairs, a
closed form the statement refuses (no scan); ``associative_scan`` splits the sequence in Python
by its length, which is a symbol in the program the rules read: code that cannot be traced
with T symbolic.

Problem: ema_scan
Expected: RJ dim_read_as_number
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    def combine(a, b):
        return a[0] * b[0], b[0] * a[1] + b[1]

    a = jnp.full_like(x, decay)
    return jax.lax.associative_scan(combine, (a, (1 - decay) * x))[1]
