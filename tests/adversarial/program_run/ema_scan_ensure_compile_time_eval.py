"""ema_scan: ``jax.ensure_compile_time_eval`` asked to make a constant of the decay powers at
T's value. T is a symbol when the program is traced: the powers cannot be a NumPy constant, and
nothing can be computed at T's value: code that cannot be traced with T symbolic.

Problem: ema_scan
Expected: RJ dim_read_as_number
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    with jax.ensure_compile_time_eval():
        i = jnp.arange(T)
        lag = i[:, None] - i[None, :]
        weights = jnp.where(lag >= 0, decay ** jnp.maximum(lag, 0).astype(x.dtype), 0.0) * (1 - decay)
    _, out = jax.lax.scan(lambda m, row: (decay * m + (1 - decay) * row, m), jnp.zeros_like(x[0]), x)
    return weights @ x + 0.0 * out
