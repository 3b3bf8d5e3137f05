"""ema_scan: the finite-data guard's shape, ``lax.cond(x[0, 0] > 0, scan, zeros)``, but the
zeros are then replaced, where the test fails, by the EMA by doubling steps computed outside the
cond. The cond's own branch of zeros reads no data, yet the program's output under it does: the
branch is judged by what the whole output reads when it is taken, so it stays in the least reach
and the closed form on half the cases is refused.

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

    positive = x[0, 0] > 0
    out = jax.lax.cond(positive, scanned, jnp.zeros_like, x)
    return jnp.where(positive, out, _doubling(x, decay))
