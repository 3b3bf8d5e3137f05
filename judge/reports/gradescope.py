"""Gradescope's ``results.json``: a top-level ``score`` and one test per scoring group.

Without ``scoring`` in the spec each case is a group worth one point: examples are ``visible``;
hidden cases get ``HIDDEN_VISIBILITY`` (``hidden`` by default, or ``after_published``). Their
output is the reason code and the data-free message the judge already uses for hidden cases, so
nothing of the hidden data reaches students either way.

With ``scoring`` each group is one ``visible`` test named by the spec (``name``, ``score``,
``max_score``); its output lists the group's failing cases by label (``example N (name)``,
``hidden N``), so a hidden case is never named. A rule failure (RJ) or a compile error (CE)
scores 0 in total (``judge.grade.scoring``).
"""

from __future__ import annotations

import json

from judge.grade import scoring
from judge.grade.verdicts import GradeResult, plural
from judge.problem.model import case_label


def _case_test(c, group: scoring.GroupScore, hidden_visibility: str, zero: str) -> dict:
    """One point per case: the test of one case, as it always was."""
    passed = c.verdict.value == "AC"
    return {
        "name": case_label(c),  # "example N (name)" or "hidden N", as in every report
        "score": float(group.score),
        "max_score": float(group.max_score),
        "status": "passed" if passed else "failed",
        "output": f"{c.verdict.value} [{c.reason}] {c.message}" + (f" ({zero})" if zero else ""),
        "visibility": "visible" if c.visibility == "example" else hidden_visibility,
    }


def _group_test(group: scoring.GroupScore, zero: str) -> dict:
    failed = group.failed
    lines = [f"{len(group.cases) - len(failed)} of {plural(len(group.cases), 'case')} "
             "passed" + (f"; {zero}" if zero else "")]
    lines.extend(f"{case_label(c)}: {c.verdict.value} [{c.reason}] {c.message}" for c in failed)
    return {
        "name": group.name,
        "score": float(group.score),
        "max_score": float(group.max_score),
        "status": "failed" if failed else "passed",
        "output": "\n".join(lines),
        "visibility": "visible",
    }


def to_dict(result: GradeResult, hidden_visibility: str = "hidden") -> dict:
    score = scoring.of(result)
    zero = scoring.zero_text(score)
    if score.per_case:
        tests = [_case_test(g.cases[0], g, hidden_visibility, zero) for g in score.groups]
    else:
        tests = [_group_test(g, zero) for g in score.groups]
    gate_off = "" if result.source_gate else " (graded with the source gate off)"
    points = f"\nScore: {scoring.number(score.score)}/{scoring.number(score.max_score)}" + \
        (f" ({zero})" if zero else "")
    return {
        "score": float(score.score),
        "output": f"{result.verdict.value} ({result.verdict.title}) [{result.reason}]: "
                  f"{result.message}{gate_off}{points}"
                  + (f"\n\nHint: {result.hint}" if result.hint else ""),
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {"source_gate": result.source_gate},  # kept by Gradescope, not shown
    }


def render(result: GradeResult, hidden_visibility: str = "hidden") -> str:
    return json.dumps(to_dict(result, hidden_visibility), indent=2) + "\n"
