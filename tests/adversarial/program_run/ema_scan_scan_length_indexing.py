"""ema_scan, honest: a scan with no scanned operand (``xs=None``, ``length=x.shape[0]``) whose
step reads its row with ``lax.dynamic_index_in_dim`` from a counter in the carry.

Problem: ema_scan
Expected: AC
"""

import jax
import jax.numpy as jnp


def ema(x, decay):
    def step(carry, _):
        t, m = carry
        row = jax.lax.dynamic_index_in_dim(x, t, axis=0, keepdims=False)
        m = decay * m + (1.0 - decay) * row
        return (t + 1, m), m

    return jax.lax.scan(step, (0, jnp.zeros_like(x[0])), None, length=x.shape[0])[1]
