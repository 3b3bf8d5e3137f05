"""ema_scan: ``lax.scan`` whose step updates each column by ``jax.vmap`` of a scalar update.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    scalar = lambda m, r: decay * m + (1.0 - decay) * r

    def step(m, row):
        m = jax.vmap(scalar)(m, row)
        return m, m

    _, out = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return out
