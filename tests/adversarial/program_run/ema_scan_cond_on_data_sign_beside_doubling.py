"""ema_scan: a lax.cond on the data (``x[0, 0] > 0``): the honest scan where the first value is
positive, otherwise the EMA by doubling steps written out (no loop, nothing that grows with T).
On the judge's own inputs the first value is positive, so the scan is the branch they take; on
the cases, about half run the doubling steps. A cond on the way to the recurrence whose index
reads the data may take either branch on a case: the reach is the least over both.

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
    def step(m, row):
        m = decay * m + (1 - decay) * row
        return m, m

    def scanned(x):
        return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]

    return jax.lax.cond(x[0, 0] > 0, scanned, lambda x: _doubling(x, decay), x)
