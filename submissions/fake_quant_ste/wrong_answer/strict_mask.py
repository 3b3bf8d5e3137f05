"""The backward mask uses strict inequalities qmin < x/scale < qmax, so the
gradient is dropped exactly at the clipping boundaries.

Expected verdict: wrong_answer -- x/scale == qmax or == qmin must pass the
gradient (second example: x=2.0, scale=1, qmax=2 -> grad 0, expected 1; and
x=-2.0, qmin=-2 -> grad 0, expected 3).
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def quant_fwd(v):
        u = v / scale
        return quant(v), (u > qmin) & (u < qmax)

    def quant_bwd(mask, g):
        return (jnp.where(mask, g, jnp.zeros_like(g)),)

    quant.defvjp(quant_fwd, quant_bwd)

    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
