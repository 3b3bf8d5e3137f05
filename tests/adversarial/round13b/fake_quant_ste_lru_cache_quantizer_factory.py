"""fake_quant_ste: the quantizer built per ``(scale, qmin, qmax)`` by a ``functools.lru_cache``
factory that returns a fresh ``custom_vjp`` function closing over the three numbers; the
residual a float mask, the gradient through ``jax.vjp``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


@functools.lru_cache(maxsize=32)
def make_quantizer(scale: float, qmin: int, qmax: int):
    @jax.custom_vjp
    def quantize(x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    def fwd(x):
        v = x / scale
        mask = ((v >= qmin) & (v <= qmax)).astype(x.dtype)
        return quantize(x), mask

    def bwd(mask, g):
        return (g * mask,)

    quantize.defvjp(fwd, bwd)
    return quantize


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    q = make_quantizer(scale, qmin, qmax)
    values, pullback = jax.vjp(q, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
