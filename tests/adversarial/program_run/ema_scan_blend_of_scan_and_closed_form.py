"""ema_scan: a weighted sum of the EMA by doubling steps and the honest scan, the scan's weight
1e-3: both are right, so the sum is, and moving the scan's results changes the output.

Problem: ema_scan
Expected: RJ missing_primitive
Open: AC: any weight of a full recurrence that the output's values show counts as computing it;
  the cheat runs the honest scan, and the closed form beside it only adds work
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
    return 0.999 * _doubling(x, decay) + 1e-3 * _scan(x, decay)
