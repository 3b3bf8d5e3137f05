"""sign_ste: an ``enum.Enum`` of quantizer modes (ternary chosen), the three values by nested
``jnp.where`` of Python ints cast to ``x.dtype``, the identity derivative from
``x - jax.lax.stop_gradient(x)`` added to the stopped quantized values.

Problem: sign_ste
Expected: AC
Cases: all
"""
import enum

import jax
import jax.numpy as jnp


class Mode(enum.Enum):
    BINARY = 2
    TERNARY = 3


def _quantize(x, mode):
    if mode is Mode.BINARY:
        return jnp.where(x >= 0, 1, -1).astype(x.dtype)
    return jnp.where(x > 0, 1, jnp.where(x < 0, -1, 0)).astype(x.dtype)


def ste_quantize(x, mode=Mode.TERNARY):
    zero = x - jax.lax.stop_gradient(x)
    return zero + jax.lax.stop_gradient(_quantize(x, mode))
