"""ema_scan: a ``lax.while_loop`` whose counter is a float32, the row read at its int32 value.

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
        i = t.astype(jnp.int32)
        m = decay * m + (1.0 - decay) * x[i]
        return t + 1.0, m, out.at[i].set(m)

    _, _, out = jax.lax.while_loop(lambda s: s[0] < T, body,
                                   (jnp.float32(0.0), jnp.zeros_like(x[0]), jnp.zeros_like(x)))
    return out
