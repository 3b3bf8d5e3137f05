"""ema_scan: the EMA by doubling steps, plus a scan over the first column only, broadcast over
every column times 1e-30: every element of the output depends on the scan's carry, by a
factor too small to change any value, and every one of them on the same column of it.

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


def ema(x, decay):
    def step(c, row):
        c = decay * c + (1 - decay) * row
        return c, c

    _, first = jax.lax.scan(step, jnp.zeros((1,), x.dtype), x[:, :1])
    return _doubling(x, decay) + 1e-30 * first
