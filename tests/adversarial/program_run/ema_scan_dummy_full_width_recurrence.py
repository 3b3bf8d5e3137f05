"""ema_scan: the EMA by doubling steps, and a scan whose carry has one element per column and is
kept from step to step times one, plus zero times the row (a recurrence on every element,
computing nothing), its rows added times zero to the output.

Problem: ema_scan
Expected: RJ missing_primitive
Open: AC: a carry of full width whose every element is computed from itself and from data
  (structurally: a product by one, a product of the data by zero) reaches every element of the
  output by an element of its own; no rule reads what the step computes, only which elements it
  computes from which, so a dummy recurrence as wide and as long as the honest one passes
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
    return _doubling(x, decay) + 0.0 * dummy
