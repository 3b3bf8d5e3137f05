"""fake_quant_ste: the ``custom_vjp`` quantizer wrapped in ``jax.checkpoint`` (rematerialized in
the backward pass, as a student saving memory would write it) before ``jax.vjp``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def make(scale: float, qmin: int, qmax: int):
    @jax.custom_vjp
    def quantize(x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    def fwd(x):
        return quantize(x), x

    def bwd(x, g):
        v = x / scale
        return (g * ((v >= qmin) & (v <= qmax)).astype(g.dtype),)

    quantize.defvjp(fwd, bwd)
    return quantize


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    quantize = jax.checkpoint(make(scale, qmin, qmax))
    values, pullback = jax.vjp(quantize, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
