"""ema_scan: the carry kept as a (1, d) matrix, each row fed as ``x[t:t+1]``-shaped by scanning
over ``x[:, None, :]``, the stacked (T, 1, d) results squeezed with ``[:, 0, :]``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    _, out = jax.lax.scan(step, jnp.zeros((1, x.shape[1]), x.dtype), x[:, None, :])
    return out[:, 0, :]
