"""ema_scan: the rows scanned as a (T, 1, d) view (``x[:, None, :]``), the carry a (1, d) row,
the result squeezed back to (T, d).

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    rows = x[:, None, :]

    def step(m, row):
        new = decay * m + (1 - decay) * row
        return new, new

    _, out = jax.lax.scan(step, jnp.zeros_like(rows[0]), rows)
    return jnp.squeeze(out, axis=1)
