"""ema_scan: the EMA of one column written as a ``lax.scan`` over a (T,) vector, then
``jax.vmap`` over the d columns with ``in_axes=1`` and ``out_axes=1``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _ema_1d(col, decay):
    def step(m, xt):
        m = decay * m + (1.0 - decay) * xt
        return m, m

    _, ms = jax.lax.scan(step, jnp.zeros((), col.dtype), col)
    return ms


def ema(x, decay):
    return jax.vmap(_ema_1d, in_axes=(1, None), out_axes=1)(x, decay)
