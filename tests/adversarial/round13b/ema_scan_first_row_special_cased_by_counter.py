"""ema_scan: the carry holds a step counter, and the first step is special-cased with
``jnp.where(t == 0, ...)`` (the same value, written for clarity); the decay's complement as a
``jnp.float32`` constant.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    keep = jnp.float32(1.0 - decay)

    def step(carry, row):
        m, t = carry
        m = jnp.where(t == 0, keep * row, decay * m + keep * row)
        return (m, t + 1), m

    _, out = jax.lax.scan(step, (jnp.zeros_like(x[0]), jnp.int32(0)), x)
    return out
