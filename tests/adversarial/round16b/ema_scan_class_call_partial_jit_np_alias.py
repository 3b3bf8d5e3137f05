"""ema_scan: honest code with an averager class (``__call__``, ``decay`` a plain attribute), the
scan under ``functools.partial(jax.jit, static_argnames="decay")``, ``jax.numpy`` imported as
``np``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as np


@functools.partial(jax.jit, static_argnames="decay")
def _run(x, decay):
    def step(m, row):
        m = decay * m + (1 - decay) * row
        return m, m

    return jax.lax.scan(step, np.zeros(x.shape[1:], np.float32), x)[1]


class MovingAverage:
    def __init__(self, decay):
        self.decay = decay

    def __call__(self, x):
        return _run(x, self.decay)


def ema(x, decay):
    return MovingAverage(decay)(x)
