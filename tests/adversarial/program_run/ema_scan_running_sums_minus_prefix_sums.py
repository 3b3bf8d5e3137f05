"""ema_scan: the EMA by doubling steps, plus a thousandth of the difference between a scan of
running sums (a recurrence computed from every row, whose rows the output shows) and the same
sums by doubling steps: the difference is rounding, the scan's work is as much as the honest
one's.

Problem: ema_scan
Expected: RJ missing_primitive
Open: AC: a full recurrence whose results and data both show in the output counts, whatever it
  computes; the cheat runs a scan as wide and as long as the honest one
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


def _prefix_sums(x):
    T, d = x.shape
    m = x
    for k in range(6):
        shift = 2 ** k
        padded = jnp.concatenate([jnp.zeros_like(m), m])
        m = m + jax.lax.dynamic_slice(padded, (jnp.maximum(jnp.array(T) - shift, 0), 0), (T, d))
    return m


def ema(x, decay):
    def step(c, row):
        c = c + row
        return c, c

    _, sums = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return _doubling(x, decay) + 1e-3 * (sums - _prefix_sums(x))
