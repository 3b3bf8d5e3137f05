"""Rule ``forbidden_primitives``: the program must not contain any named primitive.

Reads the primitive counts of the traced program (nested jaxprs included), with the names a
primitive has had across JAX versions (``primitive_names``). For example ``[while, scan]`` to
refuse ``lax.map``, ``fori_loop`` and ``while_loop`` where the work must be batched.
"""

from __future__ import annotations

from judge.rules import primitive_names
from judge.rules.base import Breach, TraceEvidence

ID = "forbidden_primitives"
EVIDENCE = ("program",)
REASONS = ("forbidden_primitive",)


def describe(rule: dict) -> str:
    return f"the traced program must not use {', '.join(rule['primitives'])}"


def validate(rule: dict, problem) -> list:
    return []


def check(rule: dict, trace: TraceEvidence, problem) -> Breach | None:
    if trace.program is None:
        return None
    used = [(n, primitive_names.count(trace.program.primitives, n)) for n in rule["primitives"]]
    used = [(n, k) for n, k in used if k]
    if not used:
        return None
    told = ", ".join(f"{n} ({k} equation{'s' if k > 1 else ''}{_first_line(trace.program, n)})"
                     for n, k in used)
    return Breach("forbidden_primitive",
                  f"{trace.label}: the traced program uses {told}; this problem forbids "
                  f"{', '.join(rule['primitives'])}")


def _first_line(program, name: str) -> str:
    """``, first at line 9``: the first line of the submission that made an equation of the
    primitive (under any of its names), where known."""
    lines = [program.lines[n] for n in primitive_names.spellings(name) if n in program.lines]
    return f", first at line {min(lines)}" if lines else ""
