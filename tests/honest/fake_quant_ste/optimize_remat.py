"""custom_vjp with optimize_remat=True."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        r = v / scale
        return (jnp.where((r >= qmin) & (r <= qmax), g, 0.0),)

    quant.defvjp(fwd, bwd, optimize_remat=True)
    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
