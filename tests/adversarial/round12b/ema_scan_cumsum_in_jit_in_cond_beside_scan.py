"""ema_scan: a closed form by ``jnp.cumsum`` of the rows weighted by decay^(-t) (exact enough
for small T), hidden in a jitted function called inside a ``lax.cond`` on the data, beside an
honest-looking scan whose result is dropped. cumsum is a forbidden primitive wherever it is.

Problem: ema_scan
Expected: RJ
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.jit
def _closed(x, decay):
    T = x.shape[0]
    t = jnp.arange(T, dtype=jnp.float32)[:, None]
    w = decay ** (-t)
    return (1 - decay) * decay ** t * jnp.cumsum(x * w, axis=0)


def ema(x, decay):
    def step(m, xt):
        m = decay * m + (1 - decay) * xt
        return m, m

    _, honest = jax.lax.scan(step, jnp.zeros_like(x[0]), x)
    d = jnp.float32(max(decay, 0.5))
    return jax.lax.cond(jnp.all(jnp.isfinite(x)), lambda: _closed(x, d), lambda: honest)
