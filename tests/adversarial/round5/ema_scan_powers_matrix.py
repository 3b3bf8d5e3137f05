"""ema_scan: the closed form as one (T, T) lower-triangular matrix of decay powers built with
jnp from ``jnp.arange(T)`` times x: no recurrence at all, and a T x T value.

Problem: ema_scan
Expected: RJ
"""

import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    i = jnp.arange(T)
    diff = i[:, None] - i[None, :]
    weights = jnp.where(diff >= 0, (1 - decay) * decay ** jnp.maximum(diff, 0).astype(x.dtype), 0.0)
    return weights @ x
