"""fake_quant_ste: a typed factory (``Callable[[jax.Array], jax.Array]``, a ``TypeVar`` for the
array type) that builds the ``custom_vjp`` quantizer for a given scale and range, the mask of
the backward rule stored as a float residual, the gradient from ``jax.vjp``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
from typing import Callable, TypeVar

import jax
import jax.numpy as jnp

A = TypeVar("A", bound=jax.Array)


def make_quantizer(scale: float, qmin: int, qmax: int) -> Callable[[A], A]:
    @jax.custom_vjp
    def quantize(x: A) -> A:
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    def fwd(x: A):
        r = x / scale
        inside = ((r >= qmin) & (r <= qmax)).astype(x.dtype)
        return quantize(x), inside

    def bwd(inside, g):
        return (g * inside,)

    quantize.defvjp(fwd, bwd)
    return quantize


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values, pullback = jax.vjp(make_quantizer(scale, qmin, qmax), x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
