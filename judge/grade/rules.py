"""A problem's rules, decided on the judge side from what the worker observed.

Each rule is a function ``(rule, case report, output) -> Breach | None`` registered under the
rule id used in specs; the case report is typed and already validated (``judge.run.boundary``).
The worker only measures (see ``worker.instrument``); the decision is here.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import numpy as np

from judge.run.boundary import NO_EVIDENCE, CaseReport
from judge.worker import provenance

#: Primitives that move computation out of JAX (names across supported versions).
CALLBACK_PRIMITIVES = frozenset({"pure_callback", "io_callback", "callback", "debug_callback"})


@dataclass(frozen=True)
class Breach:
    reason: str   # an RJ reason code from verdicts.REASONS
    message: str


def _field(output, name: str):
    if isinstance(output, dict):
        return output.get(name)
    return output if name == "value" else None


def draw_factor() -> float:
    """The factor a case's backward rules are scaled by: a power of two (so scaling is exact in
    every float dtype), drawn afresh for each case from the operating system's randomness."""
    return float(2 ** secrets.choice((1, 2, 3, 4)))


def custom_vjp_grads(rule: dict, msg: CaseReport, output, factor: float | None = None) -> Breach | None:
    """The named field must be what the backward rule of a jax.custom_vjp returned.

    Evidence from the worker, measured on one trace of the case: how often an instrumented
    custom_vjp was applied to a traced value and its backward rule ran; whether the case's
    cotangent input reaches the field along a path that passes through no backward rule
    (``provenance``); and the output evaluated again with every backward rule's result scaled
    by ``factor``, a traced input of that trace (``scaled``). A gradient that passes through n
    rules in series scales by factor**n; a formula does not scale, and the dataflow sees any
    path around the rules (a factor taken from a dummy rule included).
    """
    evidence = msg.evidence or NO_EVIDENCE
    name = rule["field"]
    if evidence.instrument_intact is False:
        return Breach("instrument_tampered", "the submission replaced jax.custom_vjp; the judge "
                                             "cannot observe its backward rule")
    if not evidence.custom_vjp_applied:
        return Breach("no_custom_vjp", f"no jax.custom_vjp function was applied to the traced "
                                       f"inputs; {name} must come from a custom_vjp backward rule")
    if not evidence.backward_runs:
        return Breach("backward_not_run", f"a custom_vjp function was applied but its backward rule "
                                          f"never ran while {name} was computed; differentiate "
                                          f"through it with jax.vjp or jax.grad")
    flow = evidence.provenance
    if flow is None or flow.reached is not False:
        return Breach("grads_not_from_backward",
                      f"the cotangent reaches {name} without passing through your backward rule: "
                      f"{name} must be what the custom_vjp's backward rule returns, not a formula, "
                      f"a stop_gradient construction or a value multiplied by a rule's output")
    if not flow.used:
        return Breach("grads_not_from_backward",
                      f"{name} does not depend on the cotangent: it must be the cotangent pulled "
                      f"back through your backward rule")
    grads = _field(output, name)
    scaled = _field(evidence.scaled, name)  # decoded and validated by judge.run.boundary
    if not isinstance(grads, np.ndarray):
        return None  # the output check reports the malformed field
    if factor is None or not isinstance(scaled, np.ndarray) or scaled.shape != grads.shape \
            or scaled.dtype != grads.dtype:
        return Breach("grads_not_from_backward", f"{name} could not be measured with the backward "
                                                 f"rules scaled")
    idx = provenance.first_unscaled(grads, scaled, factor)
    if idx is not None:
        where = f"{name}[{','.join(map(str, idx))}]"
        return Breach("grads_not_from_backward",
                      f"{name} does not come from the custom_vjp backward rule: with every "
                      f"backward rule's output scaled by {factor:g}, {where} went from "
                      f"{grads[idx].item()!r} to {scaled[idx].item()!r}, not a power of "
                      f"{factor:g} times it")
    return None


def no_callbacks(rule: dict, msg: CaseReport, output, factor: float | None = None) -> Breach | None:
    used = sorted(set(msg.trace.primitives if msg.trace else ()) & CALLBACK_PRIMITIVES)
    if used:
        return Breach("callback_used", f"the traced computation calls {', '.join(used)}: the work "
                                       f"must be done by JAX operations")
    return None


RULES = {"custom_vjp_grads": custom_vjp_grads, "no_callbacks": no_callbacks}


def check_rules(rules, msg: CaseReport, output, factor: float | None = None) -> Breach | None:
    for rule in rules:
        breach = RULES[rule["id"]](rule, msg, output, factor)
        if breach:
            return breach
    return None
