"""fake_quant_ste: a ``FakeQuant`` class whose static methods are the primal, forward and
backward functions of a ``custom_vjp`` with the three numbers as ``nondiff_argnums``; the
residual an ``int8`` mask, cast to the cotangent's dtype in the backward rule.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


class FakeQuant:
    @staticmethod
    def primal(scale, qmin, qmax, x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    @staticmethod
    def forward(scale, qmin, qmax, x):
        v = x / scale
        inside = jnp.logical_and(v >= qmin, v <= qmax).astype(jnp.int8)
        return FakeQuant.primal(scale, qmin, qmax, x), inside

    @staticmethod
    def backward(scale, qmin, qmax, inside, g):
        return (g * inside.astype(g.dtype),)


quantize = partial(jax.custom_vjp, nondiff_argnums=(0, 1, 2))(FakeQuant.primal)
quantize.defvjp(FakeQuant.forward, FakeQuant.backward)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values, pullback = jax.vjp(lambda x: quantize(scale, qmin, qmax, x), x)
    return {"values": values, "grads": pullback(cotangent)[0]}
