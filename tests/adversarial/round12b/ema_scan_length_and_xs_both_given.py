"""ema_scan: ``lax.scan`` given both ``xs=x`` and ``length=x.shape[0]``, the decay and its
complement module-free closures, the carry initialised with ``jnp.zeros((x.shape[1],))``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    a, b = decay, 1.0 - decay

    def step(m, row):
        m = a * m + b * row
        return m, m

    _, ms = jax.lax.scan(step, jnp.zeros((x.shape[1],)), xs=x, length=x.shape[0])
    return ms
