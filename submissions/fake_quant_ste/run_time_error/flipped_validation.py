"""Argument validation with the condition inverted: it raises
ValueError("qmin must be smaller than qmax") exactly when the input is valid.

Expected verdict: run_time_error -- every judge input has qmin < qmax, so the
function raises a ValueError on every call.
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    if qmin < qmax:
        raise ValueError("qmin must be smaller than qmax")

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
