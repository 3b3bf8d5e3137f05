"""fake_quant_ste: ``jax.value_and_grad`` of ``vdot(q(x), cotangent)`` with the quantized values as
``has_aux``, under a ``jax.jit`` with scale, qmin and qmax static.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(1, 2, 3))
def quantize(x, scale, qmin, qmax):
    q = jnp.round(x / scale)
    return (jnp.clip(q, qmin, qmax) * scale).astype(x.dtype)


def _fwd(x, scale, qmin, qmax):
    return quantize(x, scale, qmin, qmax), (x,)


def _bwd(scale, qmin, qmax, res, ct):
    (x,) = res
    ratio = x / scale
    return (ct * ((ratio >= qmin) & (ratio <= qmax)).astype(ct.dtype),)


quantize.defvjp(_fwd, _bwd)


@partial(jax.jit, static_argnames=("scale", "qmin", "qmax"))
def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    loss = lambda t: jnp.vdot(quantize(t, scale, qmin, qmax), cotangent)
    both = lambda t: (loss(t), quantize(t, scale, qmin, qmax))
    val, grads = jax.value_and_grad(both, has_aux=True)(x)
    return {"values": val[1], "grads": grads}
