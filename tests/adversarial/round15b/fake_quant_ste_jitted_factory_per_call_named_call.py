"""fake_quant_ste: a factory builds a fresh ``custom_vjp`` quantizer at every call, wrapped
in ``jax.named_call`` and then ``jax.jit``; the gradient ``jax.grad`` of the weighted sum with
the cotangent. Type annotations and a module-level constant in capitals, as students write.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
from typing import Callable

import jax
import jax.numpy as jnp

ZERO = 0.0


def build(scale: float, qmin: int, qmax: int) -> Callable[[jax.Array], jax.Array]:
    def levels(v: jax.Array) -> jax.Array:
        return jnp.clip(jnp.round(v / scale), qmin, qmax)

    @jax.custom_vjp
    def quantize(v: jax.Array) -> jax.Array:
        return scale * levels(v)

    def forward(v):
        return quantize(v), v / scale

    def backward(ratio, g):
        return (jnp.where((ratio >= qmin) & (ratio <= qmax), g, ZERO),)

    quantize.defvjp(forward, backward)
    return jax.jit(jax.named_call(quantize, name="fake_quant"))


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    fq = build(scale, qmin, qmax)
    values = fq(x)
    grads = jax.grad(lambda v: jnp.sum(fq(v) * cotangent))(x)
    return {"values": values, "grads": grads}
