"""ema_scan: the EMA by doubling steps, and a scan whose carry starts at zero and is kept from step
to step times one, plus zero times the row: zero at every step, added as it is to the output.

Problem: ema_scan
Expected: RJ missing_primitive
Closed by: a step's data moved far up or far down must change the output, or the step's
  carry elements are no sources; the dummy computes nothing from its data
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


def ema(x, decay):
    def step(c, row):
        c = 1.0 * c + 0.0 * row
        return c, c

    _, dummy = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return _doubling(x, decay) + dummy
