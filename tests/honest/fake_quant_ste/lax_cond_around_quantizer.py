"""jax.vjp of a lax.cond whose two branches both apply the custom_vjp quantizer."""
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
    f = lambda v: lax.cond(v.sum() > 1e9, lambda w: quant(w) * 1.0, quant, v)
    values, pb = jax.vjp(f, x)
    return {"values": values, "grads": pb(cotangent)[0]}
