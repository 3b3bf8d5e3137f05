"""ema_scan: a ``lax.while_loop`` whose counter goes from 0 to T by one, reading row t with
``lax.dynamic_index_in_dim`` and writing it with ``lax.dynamic_update_index_in_dim`` into an
output buffer of the shape of x, the running mean in the carry.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def ema(x, decay):
    T = x.shape[0]

    def cond(c):
        return c[0] < T

    def body(c):
        t, m, out = c
        row = lax.dynamic_index_in_dim(x, t, axis=0, keepdims=False)
        m = decay * m + (1.0 - decay) * row
        return t + 1, m, lax.dynamic_update_index_in_dim(out, m, t, axis=0)

    _, _, out = lax.while_loop(cond, body, (0, jnp.zeros_like(x[0]), jnp.zeros_like(x)))
    return out
