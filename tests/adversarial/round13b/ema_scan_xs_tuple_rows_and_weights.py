"""ema_scan: the scan's ``xs`` a tuple of the rows and a column of per-step weights
(``jnp.full((T,), 1 - decay)``, built from the symbolic length), the step reading its weight
from the tuple.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def ema(x, decay):
    weights = jnp.full((x.shape[0],), 1.0 - decay, dtype=x.dtype)

    def step(m, inputs):
        row, w = inputs
        m = (1.0 - w) * m + w * row
        return m, m

    _, out = jax.lax.scan(step, jnp.zeros(x.shape[1], x.dtype), (x, weights))
    return out
