"""ema_scan: the scan wrapped in ``lax.cond(jnp.all(jnp.isfinite(x)), ...)``, the student
returning NaN for an input that is not finite (which the statement excludes).

Problem: ema_scan
Expected: AC
Open: the index reads the data, and the reach is measured on the judge's own inputs, not on
  the cases: which branch a case takes is not known there, so each branch is measured and the
  branch of NaN reaches none of the output (a test on the data choosing the scan for the
  judge's inputs and a closed form for half the cases is refused the same way)
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
