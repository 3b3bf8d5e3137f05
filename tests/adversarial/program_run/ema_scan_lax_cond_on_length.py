"""ema_scan: a lax.cond on T's value as data (``jnp.array(x.shape[0])``): for T <= 4 the T x T
weight matrix, otherwise the scan. Both branches are in the program the rules read; the matrix
grows as T^2, and the branch that builds it holds no recurrence (a branch decided by T's value
on the way to the recurrence is measured both ways), which is the first rule.

Problem: ema_scan
Expected: RJ missing_primitive
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]

    def closed(x):
        i = jnp.arange(T)
        lag = i[:, None] - i[None, :]
        w = jnp.where(lag >= 0, decay ** jnp.maximum(lag, 0).astype(x.dtype), 0.0) * (1 - decay)
        return w @ x

    def scanned(x):
        step = lambda m, row: (decay * m + (1 - decay) * row,) * 2  # noqa: E731
        return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]

    return jax.lax.cond(jnp.array(T) <= 4, closed, scanned, x)
