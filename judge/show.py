"""`judge show`: a problem's statement, signature and public examples as text."""

from __future__ import annotations

import numpy as np

from .spec import Problem


def _value(v) -> str:
    if isinstance(v, np.ndarray):
        data = v.astype(np.float64).tolist() if v.dtype.kind == "V" else v.tolist()
        return f"{data} ({v.dtype})"
    return repr(v)


def render(problem: Problem) -> str:
    out = [f"# {problem.title} ({problem.id})", "", problem.statement.rstrip(), "", "## Signature"]
    params = ", ".join(p.name for p in problem.parameters)
    out.append(f"  {problem.entry_point}({params})")
    for p in problem.parameters:
        kind = f"{p.kind} {'/'.join(p.dtypes)}" if p.kind == "array" else p.kind
        out.append(f"    {p.name}: {kind}, {'traced' if p.traced else 'static Python value'}")
    if problem.rules:
        out.append("  rules: " + ", ".join(r["id"] for r in problem.rules))
    out += ["", "## Examples"]
    for case in problem.examples:
        out.append(f"### {case.name}")
        out.extend(f"  {k} = {_value(v)}" for k, v in case.inputs.items())
        out.extend(f"  -> {k} = {_value(v)}" for k, v in case.expected.items())
        if case.text:
            out.append("  " + case.text.strip().replace("\n", "\n  "))
        out.append("")
    out.append(f"{len(problem.hidden)} hidden cases; time limit {problem.limits['time_per_case_s']} s per case.")
    return "\n".join(out) + "\n"
