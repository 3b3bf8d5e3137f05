"""ema_scan: the step ``m = row + decay * (m - row)`` written with ``lax.add``, ``lax.mul`` and
``lax.sub`` and a float32 decay array; the rows scanned as ``x.astype(jnp.float32)`` and the
output cast back. Mathematically the recurrence, but at decay 0.999 the first step computes
``row - 0.999 * row`` in float32, and its rounding (an ulp of the row, some 5e-7) is more than
1e-6 + 1e-5 of the tiny true value: two hidden cases ("decay close to 1") are off by up to
3e-7 beyond the tolerance. The spec's tolerance, not the judge, decides here.

Problem: ema_scan
Expected: WA wrong_value
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def ema(x, decay):
    k = jnp.asarray(decay, jnp.float32)

    def step(m, row):
        m = lax.add(row, lax.mul(k, lax.sub(m, row)))
        return m, m

    _, out = lax.scan(step, jnp.zeros((x.shape[1],), jnp.float32), x.astype(jnp.float32))
    return out.astype(x.dtype)
