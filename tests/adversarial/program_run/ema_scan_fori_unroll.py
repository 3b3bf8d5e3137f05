"""ema_scan, honest: the recurrence as ``lax.fori_loop(..., unroll=2)`` writing each step's value
into the output (``unroll`` only tells the compiler how many steps to put in one iteration).

Expected: AC
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    def body(i, carry):
        m, out = carry
        m = decay * m + (1.0 - decay) * x[i]
        return m, out.at[i].set(m)

    _, out = jax.lax.fori_loop(0, x.shape[0], body, (jnp.zeros_like(x[0]), jnp.zeros_like(x)),
                               unroll=2)
    return out
