"""ema_scan: a cheat-like shape trick: the rows concatenated with themselves and scanned over
2T steps, the first T outputs kept: the scan is not of length T, and half of its steps are
work for nothing. The rule asks for a scan of length T.

Problem: ema_scan
Expected: RJ
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    _, out = jax.lax.scan(step, jnp.zeros_like(x[0]), jnp.concatenate([x, x]))
    return out[: x.shape[0]]
