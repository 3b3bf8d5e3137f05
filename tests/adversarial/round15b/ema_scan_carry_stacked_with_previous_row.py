"""ema_scan: the scan's carry a ``(2, d)`` array built with ``jnp.stack``: the running average and
the previous row (kept for debugging, never used in the output); the step takes it apart with
``jnp.unstack``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(carry, row):
        m, _prev = jnp.unstack(carry)
        m = decay * m + (1.0 - decay) * row
        return jnp.stack([m, row]), m

    init = jnp.zeros((2, x.shape[1]), x.dtype)
    _, out = jax.lax.scan(step, init, x)
    return out
