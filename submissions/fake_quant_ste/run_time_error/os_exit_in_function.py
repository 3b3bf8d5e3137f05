"""Calls os._exit(0) inside fake_quant_ste, killing the process immediately
(no exception, no cleanup, exit status 0) before any result is returned.

Expected verdict: run_time_error -- the judge gets no result; a clean exit code
must not be taken as success.
"""
import os

import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
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
    os._exit(0)
    return {"values": values, "grads": pullback(cotangent)[0]}
