"""Patches the worker's own CaseRunner.run (in the judge.worker.case_runner module it shares a
process with) to post-process every result.

Expected: RJ (instrument_tampered).
"""
import sys

import jax
import jax.numpy as jnp

worker = sys.modules.get("judge.worker.case_runner")
if worker is not None:
    _real_run = worker.CaseRunner.run

    def run(self, *args, **kwargs):
        return _real_run(self, *args, **kwargs)

    worker.CaseRunner.run = run


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        u = v / scale
        return quant(v), (u >= qmin) & (u <= qmax)

    def bwd(mask, g):
        return (jnp.where(mask, g, 0.0),)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
