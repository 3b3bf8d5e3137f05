"""The rules check of `judge check`: every rule of the spec is shown to refuse something, and
no rule is blind on every case and probe shape.

* In a package with rejected submissions, a rule whose reason codes none of them is expected to
  get (``reason:`` in ``submissions.yaml``) and none actually got is a warning: nothing shows
  it refuses a cheat.
* A rule module may say where it cannot tell a cheat from an honest solution
  (``blind_spots(rule, problem, traces)``), for example a size bound that every case's and
  probe shape's d x d intermediate fits under; that is a warning too.
"""

from __future__ import annotations

import numpy as np

from judge import rules
from judge.author.findings import WARNING
from judge.grade.verdicts import plural


def _shapes(problem) -> list[tuple[str, dict]]:
    """Every traced program's parameter shapes: each case's and each probe shape's."""
    arrays = [p.name for p in problem.parameters if p.kind == "array"]
    found = [(case.label, {n: tuple(np.shape(case.inputs[n])) for n in arrays}) for case in problem.cases]
    found += [(f"probe shape {s.name}", dict(s.shapes)) for s in problem.probe_shapes]
    return found


def check_rules(report, problem, results: dict) -> None:
    """``results``: Submission -> GradeResult of the package's known submissions."""
    if not problem.rules:
        return
    check = report.add("rules")
    got = {c.reason for result in results.values() for c in result.cases}
    expected = {r for sub in results for r in sub.expectation.reasons}
    shown = any(sub.folder == "rejected" for sub in results)  # else the package shows no cheat at all
    shapes = _shapes(problem)
    for i, rule in enumerate(problem.rules):
        module = rules.RULES[rule["id"]]
        if shown and not set(module.REASONS) & (got | expected):
            report.find(check, WARNING, problem.path,
                        f"rule {i} ({rule['id']}): no known submission is refused by it; add a "
                        f"rejected submission with `reason: {module.REASONS[0]}` in submissions.yaml "
                        f"to show it catches a cheat")
        blind = getattr(module, "blind_spots", None)
        for message in (blind(rule, problem, shapes) if blind else ()):
            report.find(check, WARNING, problem.path, f"rule {i} ({rule['id']}): {message}")
    check.summary = f"{plural(len(problem.rules), 'rule')}, {plural(len(problem.probe_shapes), 'probe shape')}"
