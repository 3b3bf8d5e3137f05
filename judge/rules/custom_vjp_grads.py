"""Rule ``custom_vjp_grads``: an output field is what a jax.custom_vjp backward rule returned.

Reads the custom_vjp instrument's evidence (``judge.worker.instrument`` and
``judge.worker.provenance``), measured on one trace of the case: how often an instrumented
custom_vjp was applied to a traced value and its backward rule ran; whether the cotangent
parameter reaches the field along a path that passes through no backward rule, and whether it
reaches the field at all (a field that is zero on the case may instead be zeros a backward rule
returned, made of nothing: a rule that special-cases a zero answer); and the output
evaluated again with every backward rule's result scaled by ``factor``, a traced input of that
trace. A gradient that passes through n rules in series scales by factor**n; a formula does not
scale, and the dataflow sees any path around the rules. With ``values`` (a field the custom_vjp
function computes, a quantizer's values), the dataflow also asks that each part of that field be
what one of the functions whose backward rules give the gradient computed from its input (its
forward, or the function applied plainly): an identity function whose backward rule masks the
cotangent, beside a rounding outside every function, is refused; and that every entry of it
moves when every such function's output is moved far up and far down, and when it is shifted a
little up and a little down (``judge.worker.shift``), but where the gradient is zero: a term of
the output that cancels beside a formula of the input, or that moves only far from the case's
values, is refused.
"""

from __future__ import annotations

import secrets

import numpy as np

from judge.rules.base import Breach, TraceEvidence
from judge.run.boundary import NO_EVIDENCE
from judge.worker import shift

ID = "custom_vjp_grads"
EVIDENCE = ("custom_vjp",)
REASONS = ("instrument_tampered", "no_custom_vjp", "backward_not_run", "grads_not_from_backward",
           "values_not_from_custom_vjp")


def describe(rule: dict) -> str:
    return (f"`{rule['field']}` must be the cotangent `{rule.get('cotangent', 'cotangent')}` pulled "
            f"back through the backward rule of a jax.custom_vjp function (no formula, "
            f"stop_gradient construction or custom_jvp)"
            + ("; outside the rule the cotangent is only plumbed (reshaped, broadcast, summed), "
               "never scaled or negated: the whole transformation is in the backward rule, and "
               "the function is applied to the input itself (moved, reshaped or cast only, not a "
               "value computed from it)"
               if rule.get("plumbed") else "")
            + (f"; `{rule['values']}` is what that custom_vjp function computes from its input "
               f"(not its input passed through, nor a formula outside it)"
               if rule.get("values") else ""))


def validate(rule: dict, problem) -> list:
    found = []
    if rule["field"] not in [f.name for f in problem.fields]:
        found.append(("field", f"no output field named {rule['field']!r}"))
    if "values" in rule and (rule["values"] not in [f.name for f in problem.fields]
                             or rule["values"] == rule["field"]):
        found.append(("values", f"{rule['values']!r} must name another output field than "
                                f"{rule['field']!r}"))
    cotangent = rule.get("cotangent", "cotangent")
    if not any(p.name == cotangent and p.traced and p.kind == "array" for p in problem.parameters):
        found.append(("cotangent" if "cotangent" in rule else "id",
                      f"the cotangent {cotangent!r} must name a traced array parameter"))
    return found


def draw_factor() -> float:
    """The factor a case's backward rules are scaled by: a power of two (so scaling is exact in
    every float dtype), drawn afresh for each case from the operating system's randomness."""
    return draw_factors(1)[0]


def draw_factors(count: int) -> list[float]:
    """``count`` factors as ``draw_factor`` draws them, from one read of the operating system's
    randomness (a byte each, its two low bits: 2, 4, 8 or 16 with equal chances), not one read
    per case: where system calls are slow (gVisor) those reads were a large part of the judge
    process's time per submission."""
    return [float(2 ** (1 + (b & 3))) for b in secrets.token_bytes(count)]


def _field(output, name: str):
    if isinstance(output, dict):
        return output.get(name)
    return output if name == "value" else None


def _zero(grads) -> bool:
    """Whether a field is zero everywhere: a gradient that need not depend on the cotangent (a
    rule may return zeros made of nothing where the answer is zero, as at lam = 0), provided
    every part of it is what a backward rule returned (``returned``)."""
    return isinstance(grads, np.ndarray) and grads.size > 0 and not np.any(grads)


def check(rule: dict, trace: TraceEvidence, problem) -> Breach | None:
    if trace.abstract:
        return None  # measured only on cases that run
    evidence = trace.report.evidence or NO_EVIDENCE
    name, factor = rule["field"], trace.factor
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
                      f"a stop_gradient construction or a value multiplied by a rule's output"
                      + ("; here the cotangent may only be plumbed outside the rule (reshaped, "
                         "broadcast, summed), never scaled or negated: put the whole "
                         "transformation in the backward rule, and apply the custom_vjp function "
                         "to the input itself (reshaped or cast at most), not to a value computed "
                         "from it" if rule.get("plumbed") else ""))
    grads = _field(trace.output, name)
    if not flow.used and not (flow.returned and _zero(grads)):
        return Breach("grads_not_from_backward",
                      f"{name} does not depend on the cotangent: it must be the cotangent pulled "
                      f"back through your backward rule")
    scaled = _field(evidence.scaled, name)  # decoded and validated by judge.run.boundary
    if not isinstance(grads, np.ndarray):
        return None  # the output check reports the malformed field
    if factor is None or not isinstance(scaled, np.ndarray) or scaled.shape != grads.shape \
            or scaled.dtype != grads.dtype:
        return Breach("grads_not_from_backward", f"{name} could not be measured with the backward "
                                                 f"rules scaled")
    idx = shift.first_unscaled(grads, scaled, factor)
    if idx is not None:
        where = f"{name}[{','.join(map(str, idx))}]"
        return Breach("grads_not_from_backward",
                      f"{name} does not come from the custom_vjp backward rule: with every "
                      f"backward rule's output scaled by {factor:g}, {where} went from "
                      f"{grads[idx].item()!r} to {scaled[idx].item()!r}, not a power of "
                      f"{factor:g} times it")
    if rule.get("values") and flow.computed is not True:
        values = rule["values"]
        return Breach("values_not_from_custom_vjp",
                      f"{values} is not what the custom_vjp function whose backward rule gives "
                      f"{name} computes: the quantizer itself must be the function wrapped with "
                      f"jax.custom_vjp (its forward computes {values} from its input), not an "
                      f"identity function beside a formula computed outside it")
    if rule.get("values"):
        return _moved(rule["values"], trace.output, evidence.shifted, grads)
    return None


def _moved(values: str, output, shifted, grads) -> Breach | None:
    """The values field must move at every entry when every custom_vjp function's output is
    moved far up and far down, and when it is shifted a little up and a little down
    (``judge.worker.shift``): an entry that stays is not computed from that output (a term of it
    that cancels or rounds away beside a formula of x, or that is zero near the case and moves
    only past a bound, ``out - clip(out, -b, b)``). An entry
    where the gradient field, of the values' shape, is zero is excused: the function's rule
    passes nothing there (a clipped entry), so its values need not come from the function (a
    constant written over its output where ``x`` is out of range), while a value of a formula
    beside the function is refused wherever the rule passes a cotangent."""
    base = _field(output, values)
    if not isinstance(base, np.ndarray):
        return None  # the output check reports the malformed field
    moved = [_field(out, values) for out in shifted or ()]
    if len(moved) != 4 or not all(isinstance(m, np.ndarray) for m in moved):
        return Breach("values_not_from_custom_vjp", f"{values} could not be measured with the "
                                                    f"custom_vjp function's output moved")
    excused = grads == 0 if isinstance(grads, np.ndarray) and grads.shape == base.shape else None
    far = shift.first_unmoved(base, *moved[:2], excused=excused)
    idx = far if far is not None else shift.first_unmoved(base, *moved[2:], excused=excused)
    if idx is None:
        return None
    how = "far up and far down" if far is not None else "a little up and a little down"
    seen = (f"{values}[{','.join(map(str, idx))}] stayed {base[idx].item()!r} or became NaN"
            if idx else f"{values} changed its shape")
    return Breach("values_not_from_custom_vjp",
                  f"{values} is not computed from the output of the custom_vjp function whose "
                  f"backward rule gives the gradient: with that output moved {how}, {seen}; the "
                  f"quantizer itself must be the function wrapped with jax.custom_vjp, not a "
                  f"formula of the input beside a term of its output that cancels")
