"""ema_scan: ``lax.scan`` whose step calls a module-level ``jax.jit`` update (decay passed as
a traced scalar).

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.jit
def update(m, row, decay):
    return decay * m + (1.0 - decay) * row


def ema(x, decay):
    def step(m, row):
        m = update(m, row, decay)
        return m, m

    _, out = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return out
