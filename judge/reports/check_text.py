"""The terminal report of `judge check`: one line per group of checks, the findings under it,
and a last line ``<problem>: N errors, M warnings``.

A finding may carry the graded submission behind it (``Finding.details``, data); ``details``
condenses it into a few lines (cases with the same failure grouped, the first failing example's
diff and output) so a failing submission's report is shown once, under the finding that names it.
Cases are named as the author knows them: ``example N (name)``, ``hidden N (name)``.
"""

from __future__ import annotations

import json

from judge.grade.verdicts import GradeResult, Verdict, plural
from judge.problem.model import case_label

TITLES = {"schema": "schema", "cases": "cases", "expected": "expected outputs",
          "submissions": "submissions", "verdicts": "verdicts", "strength": "test strength",
          "time limit": "time limit", "mutants": "mutants"}
LEVELS = {"error": "error", "warning": "warning", "info": "info"}
MAX_GROUPS = 6
MAX_LINES = 12
#: how a check of a submission on record as a known gap begins its summary (``judge.author``)
GAP = "known gap"


def totals(errors: int, warnings: int) -> str:
    return f"{plural(errors, 'error')}, {plural(warnings, 'warning')}"


def _summary(report, group: str, checks: list) -> str:
    failing = {f.check for f in report.findings if f.level == "error"}
    if len(checks) == 1:
        check = checks[0]
        errors = sum(1 for f in report.of(check) if f.level == "error")
        return (f"skipped: {check.skipped}" if check.skipped else check.summary
                or (plural(errors, "error") if errors else ""))
    gaps = sum(1 for c in checks if c.name not in failing and c.summary.startswith(GAP))
    ok = sum(1 for c in checks if c.name not in failing) - gaps
    known = f" ({plural(gaps, 'known gap')})" if gaps else ""
    if group == "verdicts":
        return f"{ok} of {len(checks)} submissions get their expected verdicts{known}"
    if group == "strength":
        return f"{ok} of {len(checks)} wrong submissions are caught{known}"
    return f"{ok} of {len(checks)} passed"


def render(report) -> str:
    lines = [f"{report.problem}  ({report.path})"]
    if not report.source_gate:
        lines.append("  source gate: off (submissions expected to be accepted ran unchecked)")
    groups: dict[str, list] = {}
    for check in report.checks:
        groups.setdefault(check.group, []).append(check)
    for group, checks in groups.items():
        names = {c.name for c in checks}
        findings = [f for f in report.findings if f.check in names]
        levels = {f.level for f in findings}
        status = ("FAIL" if "error" in levels else "warn" if "warning" in levels
                  else "skip" if all(c.skipped for c in checks) else "ok")
        lines.append(f"  {status:<5} {TITLES.get(group, group):<17} {_summary(report, group, checks)}")
        for f in sorted(findings, key=lambda f: ("error", "warning", "info").index(f.level)):
            lines.append(f"        {LEVELS[f.level]}: {f.where}: {f.message}")
            lines.extend("            " + line for line in details(f).splitlines())
    lines.append(f"{report.problem}: {totals(report.errors, report.warnings)} "
                 f"({report.time_s:.1f}s)")
    return "\n".join(lines) + "\n"


def details(finding) -> str:
    """The longer text shown once under a finding: its graded submission condensed, or ""."""
    return "" if finding.details is None else submission_details(finding.details)


def _named(case) -> str:
    return case_label(case, named=True)


def submission_details(result: GradeResult) -> str:
    """A graded submission in a few lines, its cases named as in the spec."""
    lines = [f"verdict {result.verdict.value} [{result.reason}] in {result.time_s:.1f}s"]
    groups: dict[tuple, list] = {}
    for case in result.cases:
        if case.verdict is not Verdict.AC:
            groups.setdefault((case.verdict.value, case.reason, case.message), []).append(case)
    passed = sum(1 for c in result.cases if c.verdict is Verdict.AC)
    if passed:
        lines.append(f"AC on {passed} of {len(result.cases)} cases")
    for (verdict, reason, message), cases in list(groups.items())[:MAX_GROUPS]:
        where = _named(cases[0]) if len(cases) == 1 else \
            f"{len(cases)} cases: " + ", ".join(case_label(c, named=False) for c in cases[:4]) + \
            (", ..." if len(cases) > 4 else "")
        lines.append(f"{verdict} [{reason}] on {where}: {message}")
    if len(groups) > MAX_GROUPS:
        lines.append(f"... and {len(groups) - MAX_GROUPS} more kinds of failure")
    example = next((c for c in result.cases if c.visibility == "example"
                    and c.verdict is not Verdict.AC), None)
    if example is not None:
        lines.extend(_example(example))
    return "\n".join(lines)


def _example(case) -> list[str]:
    out = []
    diff = case.details.get("diff")
    if diff:
        out.append(f"{_named(case)}:")
        for key in ("inputs", "probe", "expected", "got"):
            value = case.details.get("probe") if key == "probe" else diff[key]
            if value is not None:  # probe: the cotangent / tangent the judge differentiated along
                out.append(f"  {key + ':':<9} " + json.dumps(value, separators=(", ", ": ")))
    for stream in ("stdout", "stderr"):
        text = (case.details.get(stream) or "").rstrip().splitlines()
        if text:
            out.append(f"{stream} of {_named(case)}:" if not diff else f"  {stream}:")
            out.extend("  | " + line for line in text[-MAX_LINES:])
    return out
