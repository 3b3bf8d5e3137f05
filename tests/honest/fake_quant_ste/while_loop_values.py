"""values computed inside a lax.while_loop, grads from jax.vjp of the quantizer."""
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
    values = lax.while_loop(lambda s: s[0] < 1, lambda s: (s[0] + 1, quant(x)), (0, jnp.zeros_like(x)))[1]
    _, pb = jax.vjp(quant, x)
    return {"values": values, "grads": pb(cotangent)[0]}
