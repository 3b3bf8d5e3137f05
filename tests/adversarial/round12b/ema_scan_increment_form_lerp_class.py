"""ema_scan: a class whose ``__call__`` runs the scan, the step written as the increment
``m + (1 - decay) * (x_t - m)`` (a lerp), the decay kept as a float32 array attribute.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class EMA:
    def __init__(self, decay):
        self.alpha = jnp.asarray(1.0 - decay, dtype=jnp.float32)

    def step(self, m, xt):
        m = m + self.alpha * (xt - m)
        return m, m

    def __call__(self, x):
        init = jnp.zeros(x.shape[1:], x.dtype)
        return jax.lax.scan(self.step, init, x)[1]


def ema(x, decay):
    return EMA(decay)(x)
