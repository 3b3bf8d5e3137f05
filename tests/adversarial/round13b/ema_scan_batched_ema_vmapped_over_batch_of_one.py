"""ema_scan: the EMA written for one sequence and ``jax.vmap``-ed over a leading batch axis, as a
library would, applied to ``x[None]`` and the batch of one taken back with ``[0]``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _ema_one(x, decay):
    def step(m, row):
        m = decay * m + (1.0 - decay) * row
        return m, m

    return jax.lax.scan(step, jnp.zeros_like(x[0]), x)[1]


def ema(x, decay):
    batched = jax.vmap(_ema_one, in_axes=(0, None))
    return batched(x[None], decay)[0]
