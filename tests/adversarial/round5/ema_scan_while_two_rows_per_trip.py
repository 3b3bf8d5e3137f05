"""ema_scan: a hand-written ``lax.while_loop`` whose counter steps by 2 while it is below T,
two rows per trip (the second masked off past the end): its bound is T, but it runs about T / 2
times, not a recurrence of length T; the statement asks for a loop over the T steps.

Problem: ema_scan
Expected: RJ missing_primitive
"""

import jax.numpy as jnp
from jax import lax


def ema(x, decay):
    T = x.shape[0]

    def row(m, out, t):
        keep = t < T
        t = jnp.minimum(t, T - 1)
        new = decay * m + (1.0 - decay) * x[t]
        m = jnp.where(keep, new, m)
        return m, jnp.where(keep, out.at[t].set(m), out)

    def body(state):
        i, m, out = state
        m, out = row(m, out, i)
        m, out = row(m, out, i + 1)
        return i + 2, m, out

    start = (0, jnp.zeros_like(x[0]), jnp.zeros_like(x))
    _, _, out = lax.while_loop(lambda s: s[0] < T, body, start)
    return out
