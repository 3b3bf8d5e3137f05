"""separate jax.named_scope blocks around jax.vjp and around the pullback."""
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
    with jax.named_scope("forward"):
        values, pb = jax.vjp(quant, x)
    with jax.named_scope("backward"):
        grads = pb(cotangent)[0]
    return {"values": values, "grads": grads}
