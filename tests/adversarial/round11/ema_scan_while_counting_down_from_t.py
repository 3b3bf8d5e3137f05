"""ema_scan: a ``lax.while_loop`` whose counter k starts at T and steps down while ``k > 0``,
the row at each trip ``T - k``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]

    def body(s):
        k, m, out = s
        t = T - k
        m = decay * m + (1.0 - decay) * x[t]
        return k - 1, m, out.at[t].set(m)

    _, _, out = jax.lax.while_loop(lambda s: s[0] > 0, body,
                                   (T, jnp.zeros_like(x[0]), jnp.zeros_like(x)))
    return out
