"""ema_scan: the EMA by doubling steps, plus one honest scan minus a second, separate one: moving
the results of either scan changes the output, so each loop reaches every element, and the
difference is zero.

Problem: ema_scan
Expected: RJ missing_primitive
Open: AC: each loop's reach is measured on its own, with the other loop run as it is; two full
  recurrences that cancel pass beside a closed form, at twice the honest scan's work
"""

import jax
import jax.numpy as jnp


def _doubling(x, decay):
    T, d = x.shape
    m = (1 - decay) * x
    for k in range(6):
        shift = 2 ** k
        padded = jnp.concatenate([jnp.zeros_like(m), m])
        # rows before the first are zeros (a negative start would count from the end)
        moved = jax.lax.dynamic_slice(padded, (jnp.maximum(jnp.array(T) - shift, 0), 0), (T, d))
        m = m + decay ** shift * moved
    return m


def _scan(x, decay):
    def step(c, row):
        c = decay * c + (1 - decay) * row
        return c, c

    return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]


def ema(x, decay):
    return _doubling(x, decay) + (_scan(x, decay) - _scan(x * 1.0, decay))
