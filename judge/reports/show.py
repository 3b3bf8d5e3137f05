"""`judge show`: a problem's statement, signature and public examples as text."""

from __future__ import annotations

import numpy as np

from judge import rules
from judge.problem.casefile import plain_list
from judge.problem.model import Problem, seconds
from judge.grade.verdicts import plural


def _value(v) -> str:
    if isinstance(v, np.ndarray):
        return f"{plain_list(v)} ({v.dtype})"
    return repr(v)


def render(problem: Problem) -> str:
    out = [f"# {problem.title} ({problem.id})", "", problem.statement.rstrip(), "", "## Signature"]
    params = ", ".join(p.name for p in problem.parameters)
    out.append(f"  {problem.entry_point}({params})")
    for p in problem.parameters:
        kind = f"{p.kind} {'/'.join(p.dtypes)}" if p.kind == "array" else p.kind
        if p.shape is not None:
            kind += " of shape (" + ", ".join(map(str, p.shape)) + ("," if len(p.shape) == 1 else "") + ")"
        out.append(f"    {p.name}: {kind}, {'traced' if p.traced else 'static Python value'}")
    if problem.rules:
        out += ["", "## Rules (checked on the traced program)"]
        out.extend(f"  - {r['id']}: {rules.describe(r)}" for r in problem.rules)
        if problem.probe_shapes:
            out.append("  also checked, by tracing only, at: " + "; ".join(
                f"{s.name} (" + ", ".join(f"{k} {tuple(v)}" for k, v in s.shapes.items()) + ")"
                for s in problem.probe_shapes))
    out += ["", "## Examples"]
    for case in problem.examples:
        out.append(f"### {case.name}")
        out.extend(f"  {k} = {_value(v)}" for k, v in case.inputs.items())
        # the directions the judge differentiates along: without them a VJP/JVP cannot be redone
        out.extend(f"  probe: {k} = {_value(v)}" for k, v in case.probe_inputs.items())
        out.extend(f"  -> {k} = {_value(v)}" for k, v in case.expected.items())
        if case.text:
            out.append("  " + case.text.strip().replace("\n", "\n  "))
        out.append("")
    out.append(f"{plural(len(problem.hidden), 'hidden case')}; time limit "
               f"{seconds(problem.limits['time_per_case_s'])} s per case.")
    return "\n".join(out) + "\n"
