"""ema_scan: the scan wrapped in ``lax.cond(x.shape[0] > 0, ...)``, the student guarding an
empty sequence (which the statement excludes).

Problem: ema_scan
Expected: AC
Cases: all
Open: the recurrence's reach is measured on a trace at a number for T, where the cond's index
  is a literal whether it came from ``T > 0`` (true at every extent) or from ``T > 5`` (a
  branch that changes with T); taking the least reach over the branches, it counts the
  branch of zeros and refuses the scan as reaching none of the output
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    def run(x):
        return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]

    return jax.lax.cond(x.shape[0] > 0, run, jnp.zeros_like, x)
