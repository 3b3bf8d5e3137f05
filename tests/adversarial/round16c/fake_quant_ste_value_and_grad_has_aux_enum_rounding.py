"""fake_quant_ste: an ``enum.Enum`` of rounding modes (half to even chosen), the gradient from
``jax.value_and_grad(..., has_aux=True)`` of the cotangent-weighted sum with the quantized
values as the aux, the residual the input itself.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import enum
from functools import partial

import jax
import jax.numpy as jnp


class Rounding(enum.Enum):
    HALF_EVEN = "half_even"
    FLOOR = "floor"


def _round(x, mode):
    return jnp.round(x) if mode is Rounding.HALF_EVEN else jnp.floor(x)


@partial(jax.custom_vjp, nondiff_argnums=(1, 2, 3, 4))
def fq(x, scale, qmin, qmax, mode):
    return scale * jnp.clip(_round(x / scale, mode), qmin, qmax)


def fq_fwd(x, scale, qmin, qmax, mode):
    return fq(x, scale, qmin, qmax, mode), x


def fq_bwd(scale, qmin, qmax, mode, x, g):
    r = x / scale
    return (jnp.where(jnp.logical_and(qmin <= r, r <= qmax), g, jnp.zeros_like(g)),)


fq.defvjp(fq_fwd, fq_bwd)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    def weighted(x):
        q = fq(x, scale, qmin, qmax, Rounding.HALF_EVEN)
        return jnp.sum(q * cotangent), q

    (_, values), grads = jax.value_and_grad(weighted, has_aux=True)(x)
    return {"values": values.astype(jnp.float32), "grads": grads.astype(jnp.float32)}
