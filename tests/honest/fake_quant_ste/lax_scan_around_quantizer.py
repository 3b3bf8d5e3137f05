"""jax.vjp of a lax.scan that applies the quantizer to one entry per step."""
import jax
import jax.numpy as jnp
from jax import lax


def make(scale, qmin, qmax):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    quant.defvjp(fwd, bwd)
    return quant


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    quant = make(scale, qmin, qmax)
    def f(v):
        flat = v.reshape(-1)
        _, ys = lax.scan(lambda c, r: (c, quant(r)), 0.0, flat)
        return ys.reshape(v.shape)
    values, pb = jax.vjp(f, x)
    return {"values": values, "grads": pb(cotangent)[0]}
