"""ema_scan: a ``fori_loop`` over the T rows (upper bound ``x.shape[0]``) whose carry is the
average and the output buffer; each row read with ``lax.dynamic_index_in_dim`` and written with
``lax.dynamic_update_index_in_dim``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def ema(x, decay):
    T = x.shape[0]

    def body(t, state):
        m, out = state
        row = lax.dynamic_index_in_dim(x, t, axis=0, keepdims=False)
        m = decay * m + (1.0 - decay) * row
        return m, lax.dynamic_update_index_in_dim(out, m, t, axis=0)

    _, out = lax.fori_loop(0, T, body, (jnp.zeros(x.shape[1], jnp.float32), jnp.zeros_like(x)))
    return out
