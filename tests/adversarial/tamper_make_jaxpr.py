"""Replaces jax.make_jaxpr at import with a wrapper (which could hide what it traces).

Expected: RJ (instrument_tampered).
"""
import jax
import jax.numpy as jnp

_real = jax.make_jaxpr


def _quiet_make_jaxpr(fun, *args, **kwargs):
    return _real(fun, *args, **kwargs)


jax.make_jaxpr = _quiet_make_jaxpr


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
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
