"""The backward mask is computed from the rounded value round(x/scale) instead
of x/scale itself, so inputs just past a clipping boundary that round back
onto it keep their gradient.

Expected verdict: wrong_answer -- e.g. x/scale = 3.4 with qmax = 3 rounds to 3,
giving mask 1 while the expected mask is 0 (second example: x=2.5, scale=1,
qmax=2 rounds to 2 -> grad 2, expected 0).
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def quant_fwd(v):
        r = jnp.round(v / scale)
        mask = (r >= qmin) & (r <= qmax)
        return quant(v), mask

    def quant_bwd(mask, g):
        return (g * mask.astype(g.dtype),)

    quant.defvjp(quant_fwd, quant_bwd)

    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
