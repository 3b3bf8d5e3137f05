"""The backward rule written with jnp.where on a boolean mask saved as the residual."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def quant_fwd(v):
        u = v / scale
        return scale * jnp.clip(jnp.round(u), qmin, qmax), (u >= qmin) & (u <= qmax)

    def quant_bwd(inside, g):
        return (jnp.where(inside, g, jnp.zeros_like(g)),)

    quant.defvjp(quant_fwd, quant_bwd)
    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
