"""ema_scan: the EMA by doubling steps, plus an honest scan over every column minus itself. The
difference is zero, yet each output element is reached by its own element of the scan's
carry, as NaN would flow; the attacker runs the whole recurrence anyway.

Problem: ema_scan
Expected: RJ missing_primitive
Closed by: the loop's results, moved by a finite amount, must change the output; the
  difference of a value with itself never does
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
        c = decay * c + (1 - decay) * row
        return c, c

    _, scanned = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return _doubling(x, decay) + (scanned - scanned)
