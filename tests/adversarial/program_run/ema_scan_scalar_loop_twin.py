"""ema_scan twin: at concrete shapes, a loop made only of 0-d equations, put back together with
reshape and concatenate; with T a symbol, a scan whose carry is only the latest row. The
program run is the one with T a symbol: it has no recurrence over T (and wrong values).

Expected: RJ missing_primitive
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    if isinstance(T, int):
        flat = x.reshape(T, -1)
        columns = []
        for j in range(flat.shape[1]):
            m, column = jnp.float32(0.0), []
            for t in range(T):
                m = decay * m + (1.0 - decay) * flat[t, j]
                column.append(m.reshape(1, 1))
            columns.append(jnp.concatenate(column, axis=0))
        return jnp.concatenate(columns, axis=1).reshape(x.shape)
    _, out = jax.lax.scan(lambda m, row: (row, row), jnp.zeros_like(x[0]), x)
    return out
