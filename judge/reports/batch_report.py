"""Reports of a batch: a table for people, JSON and CSV for scripts and gradebooks.

Every format says how the class was graded: the JSON report has ``source_gate`` at the top and in
each result (version 2 added it), the CSV a ``source_gate`` column (``on``/``off``), and the table
a line under the counts when the gate was off. A CSV cell never starts like a formula (``cell``).

Version 3 added each submission's points (``judge.grade.scoring``): ``score`` and ``max_score``,
also columns of the CSV and a column of the table. A record from before them shows them empty.
"""

from __future__ import annotations

import csv
import io
import json

from judge.gate.switch import setting
from judge.grade import scoring
from judge.grade.verdicts import counts, plural
from judge.run.boundary import escape

COLUMNS = ("submission", "verdict", "reason", "passed", "total", "score", "max_score", "time_s",
           "message", "source_gate")
VERSION = 3


def _gate(record: dict) -> bool:
    return record.get("source_gate", True)  # journals before the switch graded with the gate on


def _field(record: dict, key: str):
    if key in ("score", "max_score"):
        return record.get(key)  # None: a record made before points were recorded
    return _gate(record) if key == "source_gate" else record[key]


def _points(record: dict) -> str:
    if record.get("score") is None:
        return "-"
    return f"{scoring.number(record['score'])}/{scoring.number(record['max_score'])}"


def render_text(problem: str, records: list[dict]) -> str:
    width = max([len("submission")] + [len(r["submission"]) for r in records])
    points = [_points(r) for r in records]
    across = max([len("score")] + [len(p) for p in points])
    lines = [f"{'submission':<{width}}  verdict  {'reason':<26} passed  {'score':>{across}}   time"]
    for r, p in zip(records, points):
        lines.append(f"{r['submission']:<{width}}  {r['verdict']:<7}  {r['reason']:<26} "
                     f"{r['passed']:>3}/{r['total']:<3} {p:>{across}} {r['time_s']:6.2f}s")
    lines.append("")
    lines.append(f"{problem}: {plural(len(records), 'submission')}: " +
                 ", ".join(f"{n} {v}" for v, n in counts(records)))
    off = sum(not _gate(r) for r in records)
    if off:
        lines.append(f"source gate: off for {plural(off, 'submission')} (the source was not "
                     f"checked before it ran)")
    return "\n".join(lines) + "\n"


def render_json(problem: str, records: list[dict]) -> str:
    return json.dumps({"version": VERSION, "problem": problem,
                       "source_gate": all(_gate(r) for r in records),
                       "counts": dict(counts(records)),
                       "results": [{k: _field(r, k) for k in COLUMNS} for r in records]},
                      indent=2) + "\n"


#: What a spreadsheet reads as the start of a formula (or strips before one).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value):
    """A CSV cell a spreadsheet shows as text: a string is one line (control characters
    escaped) and, if it starts like a formula, gets a leading single quote (OWASP's advice
    against CSV injection). Numbers are left as they are."""
    if not isinstance(value, str):
        return value
    value = escape(value)
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def render_csv(problem: str, records: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in records:
        writer.writerow([cell(setting(_gate(r)) if k == "source_gate" else _field(r, k))
                         for k in COLUMNS])
    return out.getvalue()


FORMATS = {"text": render_text, "json": render_json, "csv": render_csv}
