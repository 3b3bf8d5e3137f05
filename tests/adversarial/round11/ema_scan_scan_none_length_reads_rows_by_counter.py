"""ema_scan: ``lax.scan`` over ``xs=None`` with ``length=x.shape[0]``, the row read inside the
body by ``lax.dynamic_index_in_dim`` at a counter carried beside m.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(carry, _):
        t, m = carry
        row = jax.lax.dynamic_index_in_dim(x, t, keepdims=False)
        m = decay * m + (1.0 - decay) * row
        return (t + 1, m), m

    _, out = jax.lax.scan(step, (0, jnp.zeros_like(x[0])), None, length=x.shape[0])
    return out
