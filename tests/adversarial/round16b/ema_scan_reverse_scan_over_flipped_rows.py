"""ema_scan: honest code: ``lax.scan(..., reverse=True)`` over the rows reversed (so the scan
meets them in time order), its stacked outputs reversed back.

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

    _, out = jax.lax.scan(step, jnp.zeros(x.shape[1], x.dtype), jnp.flip(x, 0), reverse=True)
    return jnp.flip(out, 0)
