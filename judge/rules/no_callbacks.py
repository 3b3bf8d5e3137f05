"""Rule ``no_callbacks``: no pure_callback, io_callback or debug callback in the program.

Reads the primitives of the traced program: the one program the case ran (the one its values
come from, traced once for every case of its key) and the traces rules asked for beside it.
"""

from __future__ import annotations

from judge.rules import primitive_names
from judge.rules.base import Breach, TraceEvidence

ID = "no_callbacks"
EVIDENCE = ()  # the case trace's primitives; a program summary too when there is one
REASONS = ("callback_used",)
CALLBACKS = frozenset(primitive_names.spellings("callback"))


def describe(rule: dict) -> str:
    return "no pure_callback, io_callback or debug callback: the computation stays in JAX"


def validate(rule: dict, problem) -> list:
    return []


def check(rule: dict, trace: TraceEvidence, problem) -> Breach | None:
    seen = set()
    if trace.report is not None and trace.report.trace is not None:
        seen |= set(trace.report.trace.primitives)
    if trace.program is not None:
        seen |= set(trace.program.primitives)
    used = sorted(seen & CALLBACKS)
    if used:
        return Breach("callback_used", f"the traced computation calls {', '.join(used)}: the work "
                                       f"must be done by JAX operations")
    return None
