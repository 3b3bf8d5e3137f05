"""ema_scan: the EMA by doubling steps, plus the honest scan through a ``where`` that compares
it with itself: a NaN is not equal to itself, so it takes the scan's side and reaches the
output, while every finite value takes the zero.

Problem: ema_scan
Expected: RJ missing_primitive
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
    s = _scan(x, decay)
    return _doubling(x, decay) + jnp.where(s == s, 0.0, s)
