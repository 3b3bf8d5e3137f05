"""Walks the stack to the worker's CaseRunner and replaces its provenance module by one that
answers "clean" once and puts the real module back, so that the runner looks untouched after the
case; the mask is applied outside a rule that does nothing.

Class 2 (worker state).
Expected: RJ forbidden_construct
Expected with the gate off: RJ instrument_tampered
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


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    runner = case_runner()
    if runner is not None and runner.grad_rule:
        real = runner.provenance

        class Clean:
            first_unscaled = staticmethod(real.first_unscaled)

            @staticmethod
            def trace_flow(*args, **kwargs):
                runner.provenance = real
                return dict(CLEAN)

        runner.provenance = Clean
    return formula_through_a_rule_that_does_nothing(x, scale, qmin, qmax, cotangent)
