"""During a case, swaps jax.core.eval_jaxpr for a wrapper that puts the original back after its
first call, so that nothing looks replaced once the case is over.

Expected: RJ (instrument_tampered): assignments to watched names are recorded as they happen.
"""
import jax
import jax.core
import jax.numpy as jnp

_real = jax.core.eval_jaxpr


def _once(*args, **kwargs):
    jax.core.eval_jaxpr = _real
    return _real(*args, **kwargs)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    jax.core.eval_jaxpr = _once

    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        u = v / scale
        return quant(v), (u >= qmin) & (u <= qmax)

    def bwd(mask, g):
        return (jnp.where(mask, g, 0.0),)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
