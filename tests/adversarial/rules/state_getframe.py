"""Walks the call stack with sys._getframe() and f_back up to the worker's CaseRunner, whose frame
locals hold the instrument.

Class 2 (worker state).
Expected: RJ forbidden_construct
Expected with the gate off: RJ grads_not_from_backward
"""
import sys  # gate: refuse

import jax
import jax.numpy as jnp


def quantizer(scale, qmin, qmax):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    quant.defvjp(fwd, bwd)
    return quant


def formula(x, scale, qmin, qmax, cotangent):
    u = x / scale
    return cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)


def use(found, grads):
    """Bump the instrument's counters and multiply grads by its factor: a Tracker object (the
    judge before issue 16) or the state dict of the instrument's closure (after it)."""
    if found is None:
        return grads
    if isinstance(found, dict):
        found["applied"] = found.get("applied", 0) + 1
        found["runs"] = found.get("runs", 0) + 1
        factor = found.get("factor")
    else:
        found.applied += 1
        found.backward_runs += 1
        factor = found.factor
    return grads if factor is None else grads * factor


def find_state():
    return state_in_frames(sys._getframe())


def state_in_frames(frame):
    """Walk up the stack to the worker's CaseRunner.trace, whose ``tracker`` local is the
    instrument (before issue 16; after it the state is in a closure, which frames alone do not
    reach, and the formula grads stay as they are)."""
    while frame is not None:
        names = frame.f_locals
        if "tracker" in names:
            return names["tracker"]
        frame = frame.f_back
    return None


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values, pullback = jax.vjp(quantizer(scale, qmin, qmax), x)
    pullback(jnp.ones_like(x))  # a backward rule runs; its result is not used
    grads = formula(x, scale, qmin, qmax, cotangent)
    return {"values": values, "grads": use(find_state(), grads)}
