"""ema_scan with a Python loop over ``len(x)``: T is a symbol in the program every case runs,
and ``len`` needs a number. The message names the dim and the line, and says to write
``x.shape[0]``.

Expected: RJ dim_read_as_number
"""

import jax.numpy as jnp


def ema(x, decay):
    m, rows = jnp.zeros_like(x[0]), []
    for t in range(len(x)):
        m = decay * m + (1.0 - decay) * x[t]
        rows.append(m)
    return jnp.stack(rows)
