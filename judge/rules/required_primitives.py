"""Rule ``required_primitives``: the program must contain each named primitive.

Reads the primitive counts of the traced program (nested jaxprs included) over the equations
its outputs depend on (a ``lax.scan`` whose result is thrown away does not count), with the
names a primitive has had across JAX versions (``primitive_names``). For example ``[scan]`` for
an EMA written with ``lax.scan`` (``fori_loop`` with static bounds becomes a scan too).
"""

from __future__ import annotations

from judge.rules import primitive_names
from judge.rules.base import Breach, TraceEvidence

ID = "required_primitives"
EVIDENCE = ("program",)
REASONS = ("missing_primitive",)


def describe(rule: dict) -> str:
    return f"the traced program must use {', '.join(rule['primitives'])}"


def validate(rule: dict, problem) -> list:
    return []


def check(rule: dict, trace: TraceEvidence, problem) -> Breach | None:
    if trace.program is None:
        return None
    missing = [n for n in rule["primitives"] if not primitive_names.count(trace.program.live, n)]
    if not missing:
        return None
    return Breach("missing_primitive",
                  f"{trace.label}: no {' or '.join(missing)} computes the output; this problem "
                  f"requires {', '.join(rule['primitives'])}")
