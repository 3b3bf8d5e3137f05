"""ema_scan: a ``lax.scan`` with no ``xs`` and ``length=x.shape[0]``, whose carry holds the step
number (``int32``) beside the average; each step reads its row with ``lax.dynamic_index_in_dim``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(carry, _):
        t, m = carry
        row = jax.lax.dynamic_index_in_dim(x, t, axis=0, keepdims=False)
        m = decay * m + (1 - decay) * row
        return (t + 1, m), m

    init = (jnp.zeros((), jnp.int32), jnp.zeros(x.shape[1:], x.dtype))
    _, out = jax.lax.scan(step, init, None, length=x.shape[0])
    return out
