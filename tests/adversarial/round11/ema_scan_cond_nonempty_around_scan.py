"""ema_scan: the scan wrapped in ``lax.cond(x.shape[0] > 0, ...)``, the student guarding an
empty sequence (which the statement excludes).

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

    def run(x):
        return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]

    return jax.lax.cond(x.shape[0] > 0, run, jnp.zeros_like, x)
