"""jax.vjp and the pullback taken inside the branches of a lax.cond."""
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
    def both(v, c):
        y, pb = jax.vjp(quant, v)
        return y, pb(c)[0]
    values, grads = lax.cond(x.sum() > 1e9, lambda v, c: both(v, c), both, x, cotangent)
    return {"values": values, "grads": grads}
