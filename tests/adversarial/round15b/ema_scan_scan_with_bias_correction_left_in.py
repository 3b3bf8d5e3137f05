"""ema_scan: a near miss: the scan divides each average by ``1 - decay^(t+1)`` (Adam's bias
correction, which the statement says not to do), with the power carried in the scan.

Problem: ema_scan
Expected: WA
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(carry, row):
        m, p = carry
        m = decay * m + (1 - decay) * row
        p = p * decay
        return (m, p), m / (1 - p)

    _, out = jax.lax.scan(step, (jnp.zeros_like(x[0]), jnp.float32(1.0)), x)
    return out
