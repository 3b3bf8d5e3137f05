"""fake_quant_ste: the quantizer a ``jax.custom_vjp`` with ``nondiff_argnums=(1, 2, 3)`` for the
scale and the levels, the mask as ``(u >= qmin) & (u <= qmax)`` cast to float; the gradient by
``jax.vjp``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(1, 2, 3))
def quantize(x, scale, qmin, qmax):
    return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)


def _fwd(x, scale, qmin, qmax):
    return quantize(x, scale, qmin, qmax), x


def _bwd(scale, qmin, qmax, x, g):
    u = x / scale
    mask = ((u >= qmin) & (u <= qmax)).astype(g.dtype)
    return (g * mask,)


quantize.defvjp(_fwd, _bwd)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values, pullback = jax.vjp(lambda v: quantize(v, scale, qmin, qmax), x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
