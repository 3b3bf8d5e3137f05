"""The rules check of `judge check`: every rule of the spec is shown to refuse something, and
no rule is blind on every case and probe shape.

* In a package with rejected submissions, a rule whose reason codes none of them is expected to
  get (``reason:`` in ``submissions.yaml``) and none actually got is a warning: nothing shows
  it refuses a cheat.
* A rule module may say where it cannot tell a cheat from an honest solution
  (``blind_spots(rule, problem, traces)``), for example a size bound that every case's and
  probe shape's d x d intermediate fits under; that is a warning too.
* A rule's ``silence`` keeps one of these warnings for a rule kept on purpose: ``{unshown:
  why}`` or ``{blind_spot: why}`` turns it into a note that gives the reason; a silence whose
  warning is not given any more is a warning itself.
* Each rule's symbolic evidence is stated (info): what the program traced with the spec's
  symbolic dims showed in the first known submission it refuses, for example "a (d, d) value
  (float32) from dot_general has d^2 elements, growing as d^2".
"""

from __future__ import annotations

import numpy as np

from judge import rules
from judge.author.findings import INFO, WARNING
from judge.errors import JudgeError
from judge.grade.verdicts import plural
from judge.problem import spec
from judge.problem.model import dim_ranges


def _shapes(problem) -> list[tuple[str, dict]]:
    """Every traced program's parameter shapes: each case's and each probe shape's."""
    arrays = [p.name for p in problem.parameters if p.kind == "array"]
    found = [(case.label, {n: tuple(np.shape(case.inputs[n])) for n in arrays}) for case in problem.cases]
    found += [(f"probe shape {s.name}", dict(s.shapes)) for s in problem.probe_shapes]
    return found


def _evidence(module, results: dict):
    """(the submission's path, the message of its first case refused by one of the module's
    reasons) for the first known rejected submission it refuses; None if none."""
    for sub, result in sorted(results.items(), key=lambda item: item[0].rel):
        if sub.folder != "rejected":
            continue
        for case in result.cases:
            if case.reason in module.REASONS and case.visibility == "example":
                return sub.path, case.message
    return None


def _lines(problem):
    """``line(steps)``: the spec's line at those keys (None when the file cannot be read again).
    The spec is read again only when a line is asked for (a large spec takes seconds)."""
    nodes = []

    def line(steps):
        if not nodes:
            try:
                nodes.append(spec.read_yaml(problem.path)[1])
            except (JudgeError, OSError):
                nodes.append(None)
        return spec.line_of(nodes[0], steps) if nodes[0] is not None else None
    return line


def _warn(report, check, problem, i: int, rule: dict, code: str, message: str, line) -> None:
    """A warning about rule ``i``, or, where the rule's ``silence`` names its code, a note
    saying it was silenced and why."""
    said = f"rule {i} ({rule['id']}): {message}"
    why = (rule.get("silence") or {}).get(code)
    if why is None:
        report.find(check, WARNING, problem.path, said, line(["rules", i]))
    else:
        report.find(check, INFO, problem.path, f"{said} [silenced ({code}): {why}]",
                    line(["rules", i, "silence", code]))


def check_rules(report, problem, results: dict) -> None:
    """``results``: Submission -> GradeResult of the package's known submissions."""
    if not problem.rules:
        return
    check = report.add("rules")
    got = {c.reason for result in results.values() for c in result.cases}
    expected = {r for sub in results for r in sub.expectation.reasons}
    shown = any(sub.folder == "rejected" for sub in results)  # else the package shows no cheat at all
    shapes = _shapes(problem)
    line = _lines(problem)
    for i, rule in enumerate(problem.rules):
        module = rules.RULES[rule["id"]]
        fired = set()
        if shown and not set(module.REASONS) & (got | expected):
            fired.add("unshown")
            _warn(report, check, problem, i, rule, "unshown",
                  f"no known submission is refused by it; add a rejected submission with "
                  f"`reason: {module.REASONS[0]}` in submissions.yaml to show it catches a cheat",
                  line)
        blind = getattr(module, "blind_spots", None)
        for message in (blind(rule, problem, shapes) if blind else ()):
            fired.add("blind_spot")
            _warn(report, check, problem, i, rule, "blind_spot", message, line)
        for code in sorted(set(rule.get("silence") or {}) - fired):
            report.find(check, WARNING, problem.path,
                        f"rule {i} ({rule['id']}): silence.{code}: the warning it silences is not "
                        f"given any more; remove it", line(["rules", i, "silence", code]))
        evidence = _evidence(module, results)
        if evidence and problem.symbolic_dims:
            report.find(check, INFO, evidence[0], f"rule {i} ({rule['id']}) refuses it: {evidence[1]}")
    check.summary = f"{plural(len(problem.rules), 'rule')}, {plural(len(problem.probe_shapes), 'probe shape')}"
    if problem.symbolic_dims and rules.needs_program(problem.rules):
        ranges = dim_ranges(problem.parameters)
        told = ", ".join(f"{ranges[d][0]} <= {d} <= {ranges[d][1]}" if ranges[d][1] is not None
                         else f"{d} >= {ranges[d][0]}" for d in problem.symbolic_dims)
        check.summary += f", decided on the program traced with {told} as symbols"
