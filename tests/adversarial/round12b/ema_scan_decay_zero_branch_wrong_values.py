"""ema_scan: a cheat that spends nothing at decay 0: a Python branch returns zeros there, the
scan at every other decay. The rule spares decay 0 (``degenerate: {decay: [0]}``), so the
program there is graded by its values alone: zeros are not x, a wrong answer.

Problem: ema_scan
Expected: WA
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    if decay == 0:
        return jnp.zeros_like(x)

    def step(m, row):
        m = decay * m + (1 - decay) * row
        return m, m

    return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]
