"""ema_scan: the EMA by doubling steps, plus an honest scan over every column whose rows are
thrown away and whose final carry is added times zero to every row. Each output element
depends on the carry at every step through the final carry, but the final carry has one
element per column, not one per element of the output.

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
    def step(c, row):
        return decay * c + (1 - decay) * row, None

    last, _ = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return _doubling(x, decay) + 0.0 * last
