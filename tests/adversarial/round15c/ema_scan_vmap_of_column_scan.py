"""ema_scan: the average of one column written as a scan over a vector, mapped over the columns
with ``jax.vmap(..., in_axes=1, out_axes=1)`` (a batched scan of length T).

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def column(c):
        def step(m, value):
            m = decay * m + (1.0 - decay) * value
            return m, m

        return jax.lax.scan(step, jnp.float32(0.0), c)[1]

    return jax.vmap(column, in_axes=1, out_axes=1)(x)
