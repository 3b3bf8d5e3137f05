"""ema_scan: ``lax.fori_loop`` over ``x.shape[0]`` with ``out.at[i].set(m)``.

Problem: ema_scan
Expected: AC
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    def body(i, state):
        m, out = state
        m = decay * m + (1 - decay) * x[i]
        return m, out.at[i].set(m)

    _, out = jax.lax.fori_loop(0, x.shape[0], body, (jnp.zeros(x.shape[1], x.dtype), jnp.zeros_like(x)))
    return out
