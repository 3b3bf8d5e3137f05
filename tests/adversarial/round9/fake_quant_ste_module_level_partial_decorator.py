"""fake_quant_ste: a module-level quantizer decorated with
``functools.partial(jax.custom_vjp, nondiff_argnums=(1, 2, 3))``, the forward rule saving the
float mask (as float32) as its residual, the backward rule multiplying the cotangent by it;
``jax.grad`` of ``jnp.vdot(quantize(x), cotangent)`` with ``has_aux`` returning the values.

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
    r = x / scale
    keep = jnp.logical_and(r >= qmin, r <= qmax).astype(jnp.float32)
    return quantize(x, scale, qmin, qmax), keep


def _bwd(scale, qmin, qmax, keep, g):
    return (g * keep,)


quantize.defvjp(_fwd, _bwd)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    def weighted(x):
        q = quantize(x, scale, qmin, qmax)
        return jnp.vdot(q, cotangent), q

    grads, values = jax.grad(weighted, has_aux=True)(x)
    return {"values": values, "grads": grads}
