"""ema_scan: the scan's step emits the average before its update (the carry it was given) and
the output is assembled outside as ``decay * previous + (1 - decay) * x``, each row the step's
new average computed again from the stacked previous ones.

At decay 0 the output is ``0 * previous + x``: the scan's results reach it only times the
literal zero the static decay became, so moving them does not move the output, and the reach
finds no recurrence there. The rule's ``degenerate: {decay: [0]}`` spares that value: at decay 0
the average is x itself, no program needs a carry for it, and the output is graded by its
values; every other decay is measured on its own.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        return decay * m + (1 - decay) * row, m

    _, prev = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return decay * prev + (1 - decay) * x
