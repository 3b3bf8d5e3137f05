"""ema_scan: a lax.cond on T's value as data (``jnp.array(x.shape[0]) >= 32``): from 32 steps on,
an honest scan over every column; below, the EMA by doubling steps with a scan over the first
column only replacing that column. Both branches are in the program the rules read, and only
the branch taken runs. A branch decided by the dims alone on the way to the recurrence is
measured both ways: the reach is the least of the two.

Problem: ema_scan
Expected: RJ missing_primitive
"""

import jax
import jax.numpy as jnp


def _doubling(x, decay):
    T, d = x.shape
    m = (1 - decay) * x
    for k in range(6):
        shift = 2 ** k
        padded = jnp.concatenate([jnp.zeros_like(m), m])
        # rows before the first are zeros (a negative start would count from the end)
        moved = jax.lax.dynamic_slice(padded, (jnp.maximum(jnp.array(T) - shift, 0), 0), (T, d))
        m = m + decay ** shift * moved
    return m


def ema(x, decay):
    def step(c, row):
        c = decay * c + (1 - decay) * row
        return c, c

    def honest(x):
        return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]

    def cheap(x):
        _, first = jax.lax.scan(step, jnp.zeros((1,), x.dtype), x[:, :1])
        return _doubling(x, decay).at[:, :1].set(first)

    return jax.lax.cond(jnp.array(x.shape[0]) >= 32, honest, cheap, x)
