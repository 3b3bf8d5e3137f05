"""fake_quant_ste: a module-level ``jax.custom_vjp`` quantizer with ``nondiff_argnums`` for the
scale and the range, called from a ``jax.jit`` helper with ``static_argnums``.

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
    r = x / scale
    return (jnp.where((r >= qmin) & (r <= qmax), g, 0.0),)


quantize.defvjp(_fwd, _bwd)


@partial(jax.jit, static_argnums=(1, 2, 3))
def _values_and_grads(x, scale, qmin, qmax, cotangent):
    values, pullback = jax.vjp(lambda v: quantize(v, scale, qmin, qmax), x)
    return values, pullback(cotangent)[0]


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values, grads = _values_and_grads(x, scale, qmin, qmax, cotangent)
    return {"values": values, "grads": grads}
