"""ema_scan: Python state in a mutable default argument. The first trace is honest; every later
one returns a lagged average (each row one step late). Every combination of d and decay is its
own program, run for its cases: the later ones are wrong.

Problem: ema_scan
Expected: WA
"""

import jax
import jax.numpy as jnp


def ema(x, decay, _seen={"calls": 0}):
    _seen["calls"] += 1

    def step(m, row):
        new = decay * m + (1 - decay) * row
        return new, (new if _seen["calls"] == 1 else m)

    _, out = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return out
