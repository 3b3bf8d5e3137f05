"""ema_scan: a recursive halving closed form (each half's EMA, the right half corrected by the
left half's last value), stopped by ``if T == 1``, beside an honest scan whose values are added
times zero. With T a symbol, ``T == 1`` is never true and the halves never end: the program can
never be traced, which is reading T as a number, not a time limit.

Problem: ema_scan
Expected: RJ dim_read_as_number
"""

import jax
import jax.numpy as jnp


def _halving(x, decay):
    T = x.shape[0]
    if T == 1:
        return (1 - decay) * x
    h = T // 2
    left, right = _halving(x[:h], decay), _halving(x[h:], decay)
    powers = decay ** jnp.arange(1, T - h + 1, dtype=x.dtype)
    return jnp.concatenate([left, right + powers[:, None] * left[-1]])


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1 - decay) * row
        return m, m

    _, scanned = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return _halving(x, decay) + 0.0 * scanned
