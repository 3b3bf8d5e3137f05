"""The backward rule written with jax.lax.select and lax comparisons instead of jnp.where."""
import jax
import jax.numpy as jnp
from jax import lax


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def quant_fwd(v):
        return quant(v), v

    def quant_bwd(v, g):
        u = lax.div(v, jnp.full_like(v, scale))
        inside = lax.bitwise_and(lax.ge(u, jnp.full_like(u, qmin)), lax.le(u, jnp.full_like(u, qmax)))
        return (lax.select(inside, g, lax.full_like(g, 0.0)),)

    quant.defvjp(quant_fwd, quant_bwd)
    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
