"""jax.named_call around a layer that applies the quantizer, differentiated with jax.vjp."""
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
    f = jax.named_call(lambda v: quant(v) * 1.0, name="layer")
    values, pb = jax.vjp(f, x)
    return {"values": values, "grads": pb(cotangent)[0]}
