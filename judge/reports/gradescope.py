"""Gradescope's ``results.json``: one test per case, one point each.

Examples are ``visible``; hidden cases get ``HIDDEN_VISIBILITY`` (``hidden`` by default, or
``after_published``). Their output is the reason code and the data-free message the judge
already uses for hidden cases, so nothing of the hidden data reaches students either way.
"""

from __future__ import annotations

import json

from judge.grade.verdicts import GradeResult
from judge.problem.model import case_label


def to_dict(result: GradeResult, hidden_visibility: str = "hidden") -> dict:
    tests = []
    for c in result.cases:
        passed = c.verdict.value == "AC"
        tests.append({
            "name": case_label(c),  # "example N (name)" or "hidden N", as in every report
            "score": 1.0 if passed else 0.0,
            "max_score": 1.0,
            "status": "passed" if passed else "failed",
            "output": f"{c.verdict.value} [{c.reason}] {c.message}",
            "visibility": "visible" if c.visibility == "example" else hidden_visibility,
        })
    gate_off = "" if result.source_gate else " (graded with the source gate off)"
    return {
        "score": float(sum(t["score"] for t in tests)),
        "output": f"{result.verdict.value} ({result.verdict.title}) [{result.reason}]: "
                  f"{result.message}{gate_off}" + (f"\n\nHint: {result.hint}" if result.hint else ""),
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {"source_gate": result.source_gate},  # kept by Gradescope, not shown
    }


def render(result: GradeResult, hidden_visibility: str = "hidden") -> str:
    return json.dumps(to_dict(result, hidden_visibility), indent=2) + "\n"
