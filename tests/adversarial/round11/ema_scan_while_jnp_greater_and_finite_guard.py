"""ema_scan: a ``lax.while_loop`` tested by ``jnp.logical_and(jnp.greater(T, t),
jnp.all(jnp.isfinite(m)))`` (a NaN guard that never fires on finite input).

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
        return t + 1, m, out.at[t].set(m)

    def cond(s):
        t, m, _ = s
        return jnp.logical_and(jnp.greater(T, t), jnp.all(jnp.isfinite(m)))

    _, _, out = jax.lax.while_loop(cond, body, (0, jnp.zeros_like(x[0]), jnp.zeros_like(x)))
    return out
