"""The JSON report. Its keys are a contract (tests pin them); ``version`` changes if they do.

Version 2 added ``source_gate``: false when the submission was graded with the source gate off.
"""

from __future__ import annotations

import json

from ..verdicts import GradeResult

VERSION = 2


def to_dict(result: GradeResult) -> dict:
    return {
        "version": VERSION,
        "problem": result.problem,
        "submission": result.submission,
        "verdict": result.verdict.value,
        "reason": result.reason,
        "message": result.message,
        "time_s": round(result.time_s, 4),
        "source_gate": result.source_gate,
        "cases": [
            {"index": c.index, "visibility": c.visibility, "verdict": c.verdict.value,
             "reason": c.reason, "message": c.message,
             "time_s": None if c.time_s is None else round(c.time_s, 4)}
            for c in result.cases
        ],
    }


def render(result: GradeResult) -> str:
    return json.dumps(to_dict(result), indent=2) + "\n"
