"""Correct custom_vjp quantizer, but it works on x.reshape(-1) and returns the
flattened values/grads without restoring x's shape.

Expected verdict: wrong_answer -- numerically right, but for any 2-D input
(e.g. x of shape (2, 3)) both outputs have shape (6,) instead of (2, 3).
1-D inputs (including both examples) are unaffected.
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def quant_fwd(v):
        u = v / scale
        return quant(v), (u >= qmin) & (u <= qmax)

    def quant_bwd(mask, g):
        return (jnp.where(mask, g, jnp.zeros_like(g)),)

    quant.defvjp(quant_fwd, quant_bwd)

    flat_x = x.reshape(-1)
    flat_c = cotangent.reshape(-1)
    values, pullback = jax.vjp(quant, flat_x)
    return {"values": values, "grads": pullback(flat_c)[0]}
