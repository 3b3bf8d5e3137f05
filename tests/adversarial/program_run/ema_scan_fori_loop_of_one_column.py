"""ema_scan: the EMA by doubling steps, and a fori_loop over T (a while loop, T being a symbol)
that runs the real recurrence on the first column only and writes it into that column of the
output.

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
    def step(t, state):
        c, out = state
        c = decay * c + (1 - decay) * x[t, 0]
        return c, out.at[t, 0].set(c)

    _, out = jax.lax.fori_loop(0, x.shape[0], step, (jnp.zeros((), x.dtype), _doubling(x, decay)))
    return out
