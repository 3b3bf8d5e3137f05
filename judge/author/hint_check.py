"""The hints check of `judge check`: every hinted known submission fails (else its hint could
never be shown), fails some example (else its hint would be shown to submissions that fail only
hidden cases), and hinted submissions whose example outputs are identical carry the same hint.

The hints themselves (``submissions.yaml``, fingerprints, matching) are ``judge.grade.hints``.
"""

from __future__ import annotations

from judge.author.findings import ERROR
from judge.grade.hints import hinted
from judge.grade.verdicts import Verdict


def check_hints(report, problem, results: dict) -> None:
    """`judge check`: every hinted submission fails, and hinted submissions with identical
    example outputs carry the same hint. ``results``: Submission -> GradeResult."""
    known = {h.rel: h for h in hinted(problem)}
    if not known:
        return
    check = report.add("hints")
    by_outputs: dict[tuple, list] = {}
    for sub, result in results.items():
        h = known.get(sub.rel)
        if h is None:
            continue
        if result.accepted:
            report.find(check, ERROR, sub.path, "carries a hint but is accepted: its hint could "
                                                "never be shown")
            continue
        if all(c.verdict is Verdict.AC for c in result.cases if c.visibility == "example"):
            report.find(check, ERROR, sub.path, "carries a hint but passes every example: its "
                        "hint would be shown to any submission that fails only hidden cases")
            continue
        by_outputs.setdefault(tuple(result.example_fingerprints), []).append(h)
    for group in by_outputs.values():
        if len({h.hint for h in group}) > 1:
            names = ", ".join(h.rel for h in group)
            report.find(check, ERROR, group[0].path,
                        f"{names} give identical outputs on every example but carry different "
                        "hints: the examples cannot tell these mistakes apart; add an example")
    check.summary = f"{len(known)} hinted submissions, {len(by_outputs)} distinct on the examples"
