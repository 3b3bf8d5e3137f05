"""ema_scan: a ``lax.while_loop`` over the rows that writes each average into a preallocated
output with ``lax.dynamic_update_slice`` (a student coming from NumPy's preallocate-and-fill).

Problem: ema_scan
Expected: AC
Open: the recurrence rule knows the loop a fori_loop over range(T) becomes, not a while_loop
  written by hand with the counter compared with T: its length is not read, so it is refused
  (RJ missing_primitive, "a while of length ? carrying a recurrence")
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
