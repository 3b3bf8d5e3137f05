"""ema_scan: a ``lax.while_loop`` with a ``uint8`` counter (T is at most 64) compared with the
length, writing each row of the average into a buffer with ``.at[i].set``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]

    def cond(state):
        i, _, _ = state
        return i < T

    def body(state):
        i, m, out = state
        m = decay * m + (1.0 - decay) * x[i]
        return i + jnp.uint8(1), m, out.at[i].set(m)

    init = (jnp.uint8(0), jnp.zeros_like(x[0]), jnp.zeros_like(x))
    _, _, out = jax.lax.while_loop(cond, body, init)
    return out
