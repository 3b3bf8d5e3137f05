"""ema_scan: a hand-written ``lax.while_loop`` whose counter starts at T - 1 and steps down by
one while it is at least 0, the row at each trip ``T - 1 - j``: T trips, a loop of length T.

Problem: ema_scan
Expected: AC
"""

import jax.numpy as jnp
from jax import lax


def ema(x, decay):
    T = x.shape[0]

    def body(state):
        j, m, out = state
        t = T - 1 - j
        m = decay * m + (1.0 - decay) * x[t]
        return j - 1, m, out.at[t].set(m)

    start = (T - 1, jnp.zeros_like(x[0]), jnp.zeros_like(x))
    _, _, out = lax.while_loop(lambda s: s[0] >= 0, body, start)
    return out
