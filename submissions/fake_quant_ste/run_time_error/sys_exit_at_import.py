"""Calls sys.exit(0) at import time (a leftover "script mode" guard), so the
module never finishes loading even though the function below is correct.

Expected verdict: run_time_error -- SystemExit is raised while the submission is
imported; exit status 0 must not be mistaken for success.
"""
import sys

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
    return {"values": values, "grads": pullback(cotangent)[0]}


sys.exit(0)
