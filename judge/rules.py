"""A problem's rules, decided on the judge side from what the worker observed.

Each rule is a function ``(rule, case message, output) -> Breach | None`` registered under the
rule id used in specs. The worker only measures (see ``worker.instrument``); the decision is here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import checks
from .worker import protocol

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


def custom_vjp_grads(rule: dict, msg: dict, output) -> Breach | None:
    """The named field must come from the backward rule of a jax.custom_vjp applied in the trace.

    Evidence from the worker: how often an instrumented custom_vjp was applied to a traced
    value, how often its backward rule ran, and the output re-computed with every backward rule's
    result doubled. Gradients produced by the rule double with it; a separate formula does not.
    """
    evidence = msg.get("evidence") or {}
    name = rule["field"]
    if evidence.get("instrument_intact") is False:
        return Breach("instrument_tampered", "the submission replaced jax.custom_vjp; the judge "
                                             "cannot observe its backward rule")
    if not evidence.get("custom_vjp_applied"):
        return Breach("no_custom_vjp", f"no jax.custom_vjp function was applied to the traced "
                                       f"inputs; {name} must come from a custom_vjp backward rule")
    if not evidence.get("backward_runs"):
        return Breach("backward_not_run", f"a custom_vjp function was applied but its backward rule "
                                          f"never ran while {name} was computed; differentiate "
                                          f"through it with jax.vjp or jax.grad")
    grads = _field(output, name)
    try:
        perturbed = _field(protocol.decode_value(evidence.get("perturbed")), name)
    except protocol.ProtocolError:
        perturbed = None
    if not isinstance(grads, np.ndarray) or not isinstance(perturbed, np.ndarray) \
            or perturbed.shape != grads.shape:
        return None  # the output check reports the malformed field
    doubled = (grads.astype(np.float64) * 2).astype(grads.dtype)
    follows = checks.close_mask(perturbed, doubled, rtol=1e-5, atol=0.0)
    if not follows.all():
        idx = tuple(int(i) for i in np.argwhere(~follows)[0])
        return Breach("grads_not_from_backward",
                      f"{name} does not come from the custom_vjp backward rule: with the rule's "
                      f"output doubled, {name}[{','.join(map(str, idx))}] was "
                      f"{perturbed[idx].item()!r} instead of {doubled[idx].item()!r}")
    return None


def no_callbacks(rule: dict, msg: dict, output) -> Breach | None:
    used = sorted(set((msg.get("trace") or {}).get("primitives", [])) & CALLBACK_PRIMITIVES)
    if used:
        return Breach("callback_used", f"the traced computation calls {', '.join(used)}: the work "
                                       f"must be done by JAX operations")
    return None


RULES = {"custom_vjp_grads": custom_vjp_grads, "no_callbacks": no_callbacks}


def check_rules(rules, msg: dict, output) -> Breach | None:
    for rule in rules:
        breach = RULES[rule["id"]](rule, msg, output)
        if breach:
            return breach
    return None
