"""ema_scan: an honest scan with a ``jax.debug.print`` of each step's row left in the step (the
statement's prose forbids ``pure_callback`` and ``io_callback``; its rules list also refuses
debug callbacks), so the grade is refused.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        m = decay * m + (1 - decay) * row
        jax.debug.print("m = {m}", m=m)
        return m, m

    return jax.lax.scan(step, jnp.zeros(x.shape[1:], x.dtype), x)[1]
