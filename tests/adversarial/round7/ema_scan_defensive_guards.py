"""ema_scan: the honest scan behind defensive guards: a check of x's rank, ``if x.shape[0] == 0:
return x`` against an empty input, and an assert on decay and T. With T a symbol at least 1 the
ranges decide the guard (it never holds), so it is no read of T as a number.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    if x.ndim != 2:
        raise ValueError("x must be (T, d)")
    if x.shape[0] == 0:
        return x
    assert 0.0 <= decay < 1.0 and x.shape[0] >= 1

    def step(m, xt):
        m = decay * m + (1 - decay) * xt
        return m, m

    return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]
