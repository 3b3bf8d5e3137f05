"""ema_scan: a one-column EMA (``lax.scan`` over a (T,) vector, scalar carry) made with
``functools.partial`` on the decay and mapped over the d columns with
``jax.vmap(in_axes=1, out_axes=1)``.

Problem: ema_scan
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


def _ema_1d(col, decay):
    def step(m, xt):
        m = decay * m + (1.0 - decay) * xt
        return m, m

    return jax.lax.scan(step, jnp.float32(0.0), col)[1]


def ema(x, decay):
    return jax.vmap(partial(_ema_1d, decay=decay), in_axes=1, out_axes=1)(x)
