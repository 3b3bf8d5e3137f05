"""ema_scan: the EMA by doubling steps, plus the honest scan over every column times 1e-30: every
element of the output has a derivative of its own with respect to the scan's carry, but one too
small to change any value.

Problem: ema_scan
Expected: RJ missing_primitive
Closed by: the loop's results are moved by one plus their magnitude, which a factor of 1e-30
  rounds away, and the output compared value for value
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
    return _doubling(x, decay) + 1e-30 * _scan(x, decay)
