"""The class's CSV for one problem, for an instructor token: ``judge batch``'s columns
(``judge.reports.batch_report``), one row per user who submitted to it.

A user's row is their latest graded submission in ``submit`` mode (a run of the examples is not
a submission; one still queued is not in it yet), read from its stored ``judge grade`` JSON
report (``batch_report.from_report``), and named by the token's label (``token <digits>`` for a
plain token line). Look-alikes (``similar_to``) are found among the rows' sources as ``judge
batch`` finds them (``judge.grade.lookalike``): parsed, never run.
"""

from __future__ import annotations

import json
import logging

from judge.grade import lookalike
from judge.problem.model import Problem
from judge.reports import batch_report

log = logging.getLogger("judge.service")
#: Fingerprints of graded submissions, by id (a graded submission never changes): a class's
#: sources are reduced once, not at every download.
_prints: dict[str, str | None] = {}
MAX_REMEMBERED = 100_000


def records(rows: dict, problem: Problem, name_of) -> list[dict]:
    """Batch records of ``rows`` (owner -> ``store.Row``), named by ``name_of(owner)``."""
    shared = lookalike.starter(problem)
    out = []
    for who, row in rows.items():
        try:
            record = batch_report.from_report(json.loads(row.result))
        except (TypeError, ValueError, KeyError) as exc:
            log.error("submission %s: its stored report is not one the class list reads (%s)",
                      row.id, type(exc).__name__)
            continue
        if row.id not in _prints:
            if len(_prints) >= MAX_REMEMBERED:
                _prints.clear()
            _prints[row.id] = lookalike.fingerprint(row.source, problem.entry_point, shared)
        out.append({**record, "submission": name_of(who), "fingerprint": _prints[row.id]})
    out.sort(key=lambda r: r["submission"])
    alike = lookalike.similar({r["submission"]: r["fingerprint"] for r in out})
    return [{**r, "similar_to": alike[r["submission"]]} for r in out]


def csv_text(rows: dict, problem: Problem, name_of) -> str:
    return batch_report.render_csv(problem.id, records(rows, problem, name_of))
