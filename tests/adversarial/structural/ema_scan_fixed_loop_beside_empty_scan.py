"""ema for ema_scan: the recurrence as a Python loop of 64 fixed steps (every T a case may
have), rows past the end masked away, beside a live scan over zero rows; ema_scan sets no
max_equations. The scan is no recurrence over T.

Expected: RJ (missing_primitive, or dim_read_as_number where the fixed steps index past T)
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    padded = jnp.concatenate([x, jnp.zeros((64, x.shape[1]), x.dtype)])[:64]
    m = jnp.zeros_like(x[0])
    rows = []
    for t in range(64):
        m = decay * m + (1.0 - decay) * padded[t]
        rows.append(m)
    out = jnp.stack(rows)[:T]
    empty, _ = jax.lax.scan(lambda c, r: (c + r, None), jnp.zeros_like(x[0]), x[:0])
    return out + empty
