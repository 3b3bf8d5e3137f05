"""ema_scan: a ``lax.while_loop`` over the rows that writes each average into a preallocated
output with ``lax.dynamic_update_slice`` (a student coming from NumPy's preallocate-and-fill).
Its counter starts at 0 and steps by one while it is below T: a loop of length T, as
``fori_loop(0, T, ...)`` is.

Problem: ema_scan
Expected: AC
"""

import jax
import jax.numpy as jnp
from jax import lax


def ema(x, decay):
    T = x.shape[0]

    def body(state):
        i, m, out = state
        m = decay * m + (1.0 - decay) * x[i]
        return i + 1, m, lax.dynamic_update_slice(out, m[None, :], (i, 0))

    _, _, out = lax.while_loop(lambda s: s[0] < T, body, (0, jnp.zeros_like(x[0]), jnp.zeros_like(x)))
    return out
