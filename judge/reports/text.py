"""The terminal report: one line per case, a readable diff for failing examples, a summary.

Hidden cases show only their index, verdict and reason: never inputs, outputs or captured text.
What an example printed is shown under it, passing or not (``judge.reports.printed``), and a
print of a traced value gets one note at the end.
"""

from __future__ import annotations

import json
from collections import Counter

from judge.grade import scoring
from judge.grade.verdicts import CaseResult, GradeResult, shown_time
from judge.problem.model import case_label
from judge.reports import printed


def _compact(value) -> str:
    return json.dumps(value, separators=(", ", ": "))


def _case_line(c: CaseResult) -> str:
    time = f"{shown_time(c):6.2f}s" if shown_time(c) is not None else "     - "
    line = f"  {c.verdict.value:<3} {time}  {case_label(c)}"
    if c.reason != "ok":
        line += f": [{c.reason}] {c.message}"
    return line


def _example_details(c: CaseResult, case_data: bool = True) -> list[str]:
    """What a failing example shows: its inputs and probe (so it can be reproduced, whatever the
    failure), the diff of a wrong output, and the captured output. Without ``case_data`` (the
    submission never loaded, so no case ran) only the captured output."""
    out = []
    diff = c.details.get("diff")
    inputs = c.details.get("inputs", diff["inputs"] if diff else None)
    if case_data and inputs is not None:
        out.append("      inputs:   " + _compact(inputs))
    if case_data and c.details.get("probe"):  # the cotangent / tangent the judge differentiated along
        out.append("      probe:    " + _compact(c.details["probe"]))
    if diff:
        out.append("      expected: " + _compact(diff["expected"]))
        out.append("      got:      " + _compact(diff["got"]))
        for p in diff["positions"]:
            idx = ",".join(map(str, p["index"]))
            out.append(f"      {diff['field']}[{idx}]: got {p['got']!r}, expected {p['expected']!r}")
    return out + _printed(c)


def _printed(c: CaseResult) -> list[str]:
    """What an example printed, each stream under its name."""
    out = []
    for stream, text in printed.of_case(c).items():
        out.append(f"      {stream}:")
        out.extend("        | " + line for line in text.splitlines())
    return out


def _never_ran(result: GradeResult) -> bool:
    """Every case failed the same way before running (the submission did not load)."""
    cases = result.cases
    return bool(cases) and all(c.time_s is None and c.verdict is cases[0].verdict
                               and c.reason == cases[0].reason for c in cases)


def render(result: GradeResult) -> str:
    lines = [f"{result.problem}: {result.submission}"]
    if _never_ran(result):
        first = result.cases[0]
        lines.append(f"  {first.verdict.value:<3}  {'the only case' if len(result.cases) == 1 else f'all {len(result.cases)} cases'}: [{first.reason}] {first.message}")
        lines.extend(_example_details(first, case_data=False))
    else:
        for c in result.cases:
            lines.append(_case_line(c))
            if c.visibility == "example" and c.verdict.value != "AC":
                lines.extend(_example_details(c))
            elif c.visibility == "example":
                lines.extend(_printed(c))
    counts = Counter(c.verdict.value for c in result.cases)
    summary = ", ".join(f"{n} {v}" for v, n in sorted(counts.items()))
    lines.append("")
    lines.append(f"{result.verdict.value} ({result.verdict.title}) [{result.reason}] "
                 f"in {result.time_s:.2f}s: {result.message}")
    lines.append(f"cases: {summary}")
    lines.extend(scoring.text_lines(scoring.of(result)))
    if result.hint:
        lines.append(f"hint: {result.hint}")
    if printed.tracer_note(result):
        lines.append(f"note: {printed.tracer_note(result)}")
    if result.regraded:
        lines.append(f"graded {len(result.regraded) + 1} times: the earlier attempts ended with an "
                     f"internal error ({', '.join(result.regraded)}), the judge's fault, not the "
                     f"submission's")
    if not result.source_gate:
        lines.append("source gate: off (the source was not checked before it ran)")
    return "\n".join(lines) + "\n"
