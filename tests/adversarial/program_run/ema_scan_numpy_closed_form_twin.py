"""ema_scan twin: at concrete shapes, the closed form as one matmul with a constant T x T matrix
built in NumPy (the work folded into a constant); with T a symbol, a scan that computes a
running sum. The program run is the one with T a symbol: its values are wrong.

Expected: WA
"""

import jax
import jax.numpy as jnp
import numpy as np


def ema(x, decay):
    T = x.shape[0]
    if isinstance(T, int):
        i = np.arange(T)
        powers = np.where(i[:, None] >= i[None, :], np.float32(0.9) ** (i[:, None] - i[None, :]), 0.0)
        weights = jnp.asarray(powers.astype(np.float32)) * (1.0 - decay)
        return (weights @ x.reshape(T, -1)).reshape(x.shape)
    _, out = jax.lax.scan(lambda m, row: (m + row, m + row), jnp.zeros_like(x[0]), x)
    return out
