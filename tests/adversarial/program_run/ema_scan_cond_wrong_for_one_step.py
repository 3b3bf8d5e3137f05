"""ema_scan: a lax.cond on ``x.shape[0] == 1`` as data, whose branch for one time step returns the
row itself (forgetting 1 - decay). The cases with T = 1 run that branch and are graded like any
other; and a branch decided by T's value on the way to the recurrence is measured both ways: the
branch for one step holds no recurrence.

Problem: ema_scan
Expected: RJ missing_primitive
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    def scanned(x):
        def step(m, row):
            m = decay * m + (1.0 - decay) * row
            return m, m

        return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]

    return jax.lax.cond(jnp.array(x.shape[0]) == 1, lambda x: x, scanned, x)
