"""ema_scan: ``jax.lax.fori_loop(0, x.shape[0], ...)`` over a carry ``(mean, out)``, the output
written a row at a time with ``out.at[i].set(mean)`` into ``jnp.zeros_like(x)``; the step a
keyword-only function bound with ``functools.partial``.

Problem: ema_scan
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


def _body(i, carry, *, x, decay):
    mean, out = carry
    mean = decay * mean + (1 - decay) * x[i]
    return mean, out.at[i].set(mean)


def ema(x, decay):
    init = (jnp.zeros_like(x[0]), jnp.zeros_like(x))
    _, out = jax.lax.fori_loop(0, x.shape[0], partial(_body, x=x, decay=decay), init)
    return out
