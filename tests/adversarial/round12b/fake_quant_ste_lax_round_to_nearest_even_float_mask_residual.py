"""fake_quant_ste: the rounding by ``lax.round(u, lax.RoundingMethod.TO_NEAREST_EVEN)``, the
clip by ``lax.clamp``, the forward's residual the float mask itself, the backward ``g * mask``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    lo, hi = jnp.float32(qmin), jnp.float32(qmax)

    @jax.custom_vjp
    def fq(v):
        u = v / scale
        return scale * lax.clamp(lo, lax.round(u, lax.RoundingMethod.TO_NEAREST_EVEN), hi)

    def fwd(v):
        u = v / scale
        mask = jnp.where((u >= lo) & (u <= hi), 1.0, 0.0).astype(jnp.float32)
        return fq(v), mask

    def bwd(mask, g):
        return (g * mask,)

    fq.defvjp(fwd, bwd)
    values, back = jax.vjp(fq, x)
    return {"values": values, "grads": back(cotangent)[0]}
