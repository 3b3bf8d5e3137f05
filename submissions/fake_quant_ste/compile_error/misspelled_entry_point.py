"""Correct implementation, but the entry point is misspelled
`fake_quant_st` (missing trailing "e"), so there is no `fake_quant_ste`.

Expected verdict: compile_error -- the required module-level function
fake_quant_ste does not exist.
"""
import jax
import jax.numpy as jnp


def fake_quant_st(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def quant_fwd(v):
        return quant(v), v

    def quant_bwd(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    quant.defvjp(quant_fwd, quant_bwd)

    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
