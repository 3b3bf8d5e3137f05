"""ema_scan twin: with T a symbol, a scan (the recurrence the rules want) beside a fixed number
of copies of the step; at concrete shapes, a Python loop over T. The rules see the first and the
values came from the second, until the program run became the program judged: now every case
runs the first, whose values are wrong; and the scan reaches every row of the output but the
three the copies overwrite, which the recurrence rule refuses first.

Expected: RJ
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    if isinstance(T, int):
        m, rows = jnp.zeros_like(x[0]), []
        for t in range(T):
            m = decay * m + (1.0 - decay) * x[t]
            rows.append(m)
        return jnp.stack(rows)
    _, out = jax.lax.scan(lambda m, row: (m + row, m + row), jnp.zeros_like(x[0]), x)
    m = jnp.zeros_like(x[0])
    for t in range(3):
        m = decay * m + (1.0 - decay) * x[t]
    return out.at[:3].set(m)
