"""ema_scan, cheat: a ``lax.while_loop`` over T whose test joins ``t < T`` with a guard on
what it computed (every row of the output still zero), so it stops after the first row,
beside a doubling prefix scan of log2 T trips that gives the answer: a loop that may stop
early counts for the rows it runs, measured, not for T.

Problem: ema_scan
Expected: RJ missing_primitive
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    idx = jnp.arange(T)

    def body(s):
        t, m, out = s
        m = decay * m + (1.0 - decay) * x[t]
        return t + 1, m, out.at[t].set(m)

    _, _, first = jax.lax.while_loop(lambda s: jnp.logical_and(s[0] < T, jnp.all(s[2] == 0)), body,
                                     (0, jnp.zeros_like(x[0]), jnp.zeros_like(x)))

    def double(s):
        k, y, p = s
        shifted = jnp.where((idx >= k)[:, None], jnp.roll(y, k, axis=0), 0.0)
        return k * 2, y + p * shifted, p * p

    _, y, _ = jax.lax.while_loop(lambda s: s[0] < T, double, (1, (1.0 - decay) * x, jnp.float32(decay)))
    return jnp.where((idx == 0)[:, None], first, y)
