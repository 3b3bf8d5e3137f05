"""ema_scan: ``lax.scan`` of a step wrapped in ``jax.checkpoint``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    @jax.checkpoint
    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    _, out = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return out
