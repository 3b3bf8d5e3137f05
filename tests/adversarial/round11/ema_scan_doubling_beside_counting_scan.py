"""ema_scan, cheat: the doubling prefix scan of log2 T trips gives the answer, beside a
``lax.scan`` over the rows whose carry m runs the recurrence but reaches the output only
times zero.

Problem: ema_scan
Expected: RJ missing_primitive
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    T = x.shape[0]
    idx = jnp.arange(T)

    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    m_last, _ = jax.lax.scan(step, jnp.zeros_like(x[0]), x)

    def body(s):
        k, y, p = s
        shifted = jnp.where((idx >= k)[:, None], jnp.roll(y, k, axis=0), 0.0)
        return k * 2, y + p * shifted, p * p

    _, y, _ = jax.lax.while_loop(lambda s: s[0] < T, body,
                                 (1, (1.0 - decay) * x, jnp.float32(decay)))
    return y + 0.0 * m_last
