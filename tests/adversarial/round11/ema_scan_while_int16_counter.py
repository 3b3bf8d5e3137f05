"""ema_scan: ``lax.while_loop`` whose counter is a ``jnp.int16`` (T is at most 64), tested by
``t < T``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]

    def body(s):
        t, m, out = s
        m = decay * m + (1.0 - decay) * x[t]
        return t + jnp.int16(1), m, out.at[t].set(m)

    _, _, out = jax.lax.while_loop(lambda s: s[0] < T, body,
                                   (jnp.int16(0), jnp.zeros_like(x[0]), jnp.zeros_like(x)))
    return out
