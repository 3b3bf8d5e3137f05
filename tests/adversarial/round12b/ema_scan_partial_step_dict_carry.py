"""ema_scan: the step a module-level function bound to the decay with ``functools.partial``,
its carry a dict holding the average, its output the new row cast to float32; the first
carry ``jnp.zeros_like(x[0])``.

Problem: ema_scan
Expected: AC
Cases: all
"""
from functools import partial

import jax.numpy as jnp
from jax import lax

ALPHA_DTYPE = jnp.float32


def step(carry: dict, row: jnp.ndarray, *, decay: float):
    new = decay * carry["m"] + (1 - decay) * row
    return {"m": new}, new.astype(ALPHA_DTYPE)


def ema(x: jnp.ndarray, decay: float = 0.9) -> jnp.ndarray:
    """m_t = decay * m_(t-1) + (1 - decay) * x_t, from a zero row."""
    assert x.ndim == 2
    _, out = lax.scan(partial(step, decay=decay), {"m": jnp.zeros_like(x[0])}, x)
    return out
