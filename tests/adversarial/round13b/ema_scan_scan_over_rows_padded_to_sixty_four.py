"""ema_scan: a cheat that pads the sequence to the largest length, 64 rows, and scans a fixed
64 steps (one program for every T, the answer the first T rows): not a scan of length T, and a
buffer of 64 rows is larger than four times ``x`` where T is small.

Problem: ema_scan
Expected: RJ
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T, d = x.shape
    padded = jnp.concatenate([x, jnp.zeros((64, d), x.dtype)])[:64]

    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    _, out = jax.lax.scan(step, jnp.zeros((d,), x.dtype), padded)
    return jax.lax.dynamic_slice_in_dim(out, 0, T)
