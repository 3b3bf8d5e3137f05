"""jax.vjp of a lax.switch on a constant mode whose branch switches on a mode handed to it."""
import jax
import jax.numpy as jnp
from jax import lax


def quantizer(scale, qmin, qmax):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        u = v / scale
        return quant(v), (u >= qmin) & (u <= qmax)

    def bwd(mask, g):
        return (jnp.where(mask, g, jnp.zeros_like(g)),)

    quant.defvjp(fwd, bwd)
    return quant


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    quant = quantizer(scale, qmin, qmax)
    def inner(pair):
        mode, v = pair
        return lax.switch(mode, [lambda w: w, lambda w: w * 0.5, quant], v)

    def outer(v):
        return lax.switch(jnp.int32(1), [lambda p: p[1], inner], (jnp.int32(5), v))

    values, pullback = jax.vjp(outer, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
