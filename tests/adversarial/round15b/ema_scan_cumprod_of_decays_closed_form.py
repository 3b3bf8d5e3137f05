"""ema_scan: a cheat: the closed form m_t = decay^t * sum_{k<=t} (1 - decay) x_k / decay^k
spelled with ``jnp.cumprod`` of a column of decays (and ``jnp.cumsum``), beside a scan that only
counts the rows.

Problem: ema_scan
Expected: RJ
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    powers = jnp.cumprod(jnp.full((x.shape[0], 1), decay, x.dtype), axis=0) / decay
    _, _ = jax.lax.scan(lambda c, row: (c + 1, None), 0, x)
    return powers * jnp.cumsum((1.0 - decay) * x / powers, axis=0)
