"""ema_scan: the scan stacks the averages of all steps but the last (each step emits the
average it was given, shifted by one) and the last row is the final carry: the output is the
results from step 1 on with the final carry appended.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        new = decay * m + (1 - decay) * row
        return new, new

    last, ms = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return jnp.concatenate([ms[:-1], last[None, :]], axis=0)
