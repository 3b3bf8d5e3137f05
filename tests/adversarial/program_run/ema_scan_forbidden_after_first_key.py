"""ema_scan: Python state across traces. The first program traced (for the first combination
of d and decay) is the honest scan; every later one is the cumsum closed form, which the rules
refuse. Each combination's program is traced once and decided on its own.

Problem: ema_scan
Expected: RJ forbidden_primitive
"""

import jax
import jax.numpy as jnp

_traced = []


def ema(x, decay):
    _traced.append(x.shape)

    def step(m, row):
        m = decay * m + (1 - decay) * row
        return m, m

    _, out = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    if len(_traced) == 1:
        return out
    return out + 0.0 * jnp.cumsum(x, axis=0)
