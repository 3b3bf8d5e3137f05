"""ema_scan: a lax.cond on T's value joined with a test of the data that never holds
(``(jnp.array(T) == 32) | jnp.isnan(x[0, 0])``): the scan at T = 32, the extent the reach is
measured at, and the EMA by doubling steps at every other. The index reads the data, so it is
not decided by the dims alone; it may take either branch on a case, and the reach is the least
over both.

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
        moved = jax.lax.dynamic_slice(padded, (jnp.maximum(jnp.array(T) - shift, 0), 0), (T, d))
        m = m + decay ** shift * moved
    return m


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1 - decay) * row
        return m, m

    def scanned(x):
        return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]

    at_32 = (jnp.array(x.shape[0]) == 32) | jnp.isnan(x[0, 0])
    return jax.lax.cond(at_32, scanned, lambda x: _doubling(x, decay), x)
