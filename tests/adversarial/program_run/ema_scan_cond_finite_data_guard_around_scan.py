"""ema_scan: the scan wrapped in ``lax.cond(jnp.all(jnp.isfinite(x)), ...)``, the student
returning NaN for an input that is not finite (which the statement excludes).

Problem: ema_scan
Expected: AC
The index reads the data, so a case may take either branch; the branch of NaN builds its output
from a literal and x's shape alone, reading none of the data, so a case that takes it is graded
by that fixed output's values and it is left out of the least reach: the scan's is what counts.
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    def run(x):
        return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]

    return jax.lax.cond(jnp.all(jnp.isfinite(x)), run, lambda x: jnp.full_like(x, jnp.nan), x)
