"""ema_scan, honest: the scan's step wrapped in ``jax.checkpoint`` and ``jax.named_call``, the
whole function under ``jax.jit`` with ``decay`` static through ``functools.partial``.

Problem: ema_scan
Expected: AC
"""

import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=1)
def _ema(x, decay):
    @jax.checkpoint
    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    return jax.lax.scan(jax.named_call(step, name="ema_step"), jnp.zeros_like(x[0]), x)[1]


def ema(x, decay):
    return _ema(x, decay)
