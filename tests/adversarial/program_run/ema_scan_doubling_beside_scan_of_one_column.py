"""ema_scan: the EMA by parallel prefix (six doubling steps written out, enough for T <= 64: no
scan, no forbidden primitive, nothing that grows with T), and beside it a real recurrence in a
lax.scan, but over the first column only, which replaces that column of the output. The scan's
carry reaches the output array by array; element by element it reaches one column, every other
column being the closed form's.

Problem: ema_scan
Expected: RJ
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    T, d = x.shape
    m = (1 - decay) * x
    for k in range(6):
        shift = 2 ** k
        padded = jnp.concatenate([jnp.zeros_like(m), m])
        # rows before the first are zeros (a negative start would count from the end)
        moved = jax.lax.dynamic_slice(padded, (jnp.maximum(jnp.array(T) - shift, 0), 0), (T, d))
        m = m + decay ** shift * moved

    def step(c, row):
        c = decay * c + (1 - decay) * row
        return c, c

    _, first = jax.lax.scan(step, jnp.zeros((1,), x.dtype), x[:, :1])
    return m.at[:, :1].set(first)
