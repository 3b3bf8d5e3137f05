"""An EMA by parallel prefix (twelve doubling steps, written out), beside a scan placed in the
branch of a lax.cond that is never taken (x is finite, so isnan is never true). No
multiplication by zero: the scan is in the program and feeds the output through the cond.

Expected verdict: rejected (the scan computes nothing).
"""
import jax
import jax.numpy as jnp


def _doubling(x, decay):
    T, d = x.shape
    m = (1 - decay) * x
    for k in range(12):
        shift = 2 ** k
        padded = jnp.concatenate([jnp.zeros_like(m), m])
        moved = jax.lax.dynamic_slice(padded, (max(T - shift, 0), 0), (T, d))
        m = m + decay ** shift * moved
    return m


def _scan(x, decay):
    def step(m, row):
        m = decay * m + (1 - decay) * row
        return m, m
    return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]


def ema(x, decay):
    return jax.lax.cond(jnp.isnan(x[0, 0]), lambda y: _scan(y, decay), lambda y: _doubling(y, decay), x)
