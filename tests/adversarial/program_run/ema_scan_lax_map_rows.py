"""ema_scan: the EMA of each row's prefix by ``lax.map`` over t, each a masked weighted sum of
all T rows (T x T x d work, with an intermediate of T x d per step). No recurrence: the
carry-less map is not a scan whose carry reaches the output.

Problem: ema_scan
Expected: RJ missing_primitive
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    i = jnp.arange(T)

    def row(t):
        lag = t - i
        w = jnp.where(lag >= 0, decay ** jnp.maximum(lag, 0).astype(x.dtype), 0.0) * (1 - decay)
        return w @ x

    return jax.lax.map(row, i)
