"""ema for ema_scan as a Python double loop over the time steps (each m[t] summed afresh from
every earlier row): slow to trace at a large concrete T, and once a reason that depended on
the machine's load (unrolled_loop alone, a probe shape that "did not finish" under load).
Traced with T as a symbol it cannot be traced at all, alone or beside busy processes.

Expected: RJ dim_read_as_number
"""

import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    rows = []
    for t in range(T):
        acc = jnp.zeros_like(x[0])
        for s in range(t + 1):
            acc = acc + (1.0 - decay) * decay ** (t - s) * x[s]
        rows.append(acc)
    return jnp.stack(rows)
