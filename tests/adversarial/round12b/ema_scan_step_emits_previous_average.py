"""ema_scan: the scan's step emits the average before its update (the carry it was given) and
the output is assembled outside as ``decay * previous + (1 - decay) * x``, each row the step's
new average computed again from the stacked previous ones.

At decay 0 the output is ``0 * previous + x``: the scan's results reach it only times the
literal zero the static decay became, so moving them does not move the output, and the reach
finds no recurrence in the decay_zero cases (example 2 among them). The standard step at decay
0, ``0 * m + row``, passes because its carry is the output itself.

Problem: ema_scan
Expected: AC
Cases: all
Open: at decay 0 a scan whose results the output reads only as ``decay * results`` reaches
  nothing, so an honest step that emits the average before its update is refused on the
  decay_zero cases
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(m, row):
        return decay * m + (1 - decay) * row, m

    _, prev = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    return decay * prev + (1 - decay) * x
