"""ema_scan: the scan wrapped in ``lax.cond(jnp.array(x.shape[0]) > 0, ...)``, the student
guarding an empty sequence with T's value as data rather than as a Python number. The test is
evaluated at every extent the statement allows (1 to 64): it holds at all of them, so the scan
is the branch every case runs, and its reach is measured alone.

Problem: ema_scan
Expected: AC
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    def run(x):
        return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]

    return jax.lax.cond(jnp.array(x.shape[0]) > 0, run, jnp.zeros_like, x)
