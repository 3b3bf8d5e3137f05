"""Walks the stack to the worker's CaseRunner and replaces its recorder by one that records no
trace (no markers, so no factor to scale by: the values of the one trace are what the
formula gives) and reports a rule run, and its marker by another name; the grads are a plain
formula.

Class 2 (worker state).
Expected: RJ forbidden_construct
Expected with the gate off: RJ instrument_tampered or grads_not_from_backward
"""
import sys  # gate: refuse

import jax
import jax.numpy as jnp


def case_runner():
    """The worker's CaseRunner instance, found in the frame locals up the stack."""
    frame = sys._getframe(1)
    while frame is not None:
        candidate = frame.f_locals.get("self")
        if type(candidate).__name__ == "CaseRunner":
            return candidate
        frame = frame.f_back
    return None


def formula_through_a_rule_that_does_nothing(x, scale, qmin, qmax, cotangent):
    """Values from a quantizer; grads: the masked cotangent pulled back through an identity rule,
    so that they scale with the factor like a rule's output."""
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    quant.defvjp(lambda v: (quant(v), None), lambda _, g: (g,))
    u = x / scale
    masked = jnp.where((u >= qmin) & (u <= qmax), cotangent, 0.0)
    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(masked)[0]}


CLEAN = {"reached": False, "used": True, "rules": 1, "opaque": 0}


class Recorder:
    def __init__(self, real):
        self.real = real

    def begin(self, factor):
        self.real.begin(factor)

    def stop(self):
        self.real.stop()

    def counts(self):
        return (1, 1)

    def intact(self):
        return True

    def made(self):
        return {}


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    runner = case_runner()
    if runner is not None and runner.grad_rule:
        runner.recorder = Recorder(runner.recorder)
        runner.marker = "rother"
    return formula_through_a_rule_that_does_nothing(x, scale, qmin, qmax, cotangent)
