"""ema_scan: an ``enum.Enum`` saying whether to correct the bias (no correction here), the scan
over a tuple ``xs=(x,)`` inside ``jax.named_scope``, the decay made an array with
``jnp.asarray(decay, dtype=jnp.float32)``.

Problem: ema_scan
Expected: AC
Cases: all
"""
import enum

import jax
import jax.numpy as jnp


class Correction(enum.Enum):
    NONE = 0
    BIAS = 1


def ema(x, decay, correction=Correction.NONE):
    a = jnp.asarray(decay, dtype=jnp.float32)

    def step(m, xs):
        (row,) = xs
        m = a * m + (1 - a) * row
        return m, m

    with jax.named_scope("ema"):
        _, out = jax.lax.scan(step, jnp.zeros_like(x[0]), (x,))
    if correction is Correction.BIAS:
        raise NotImplementedError("bias correction is not part of this function")
    return out
