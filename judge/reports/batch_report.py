"""Reports of a batch: a table for people, JSON and CSV for scripts and gradebooks.

Every format says how the class was graded: the JSON report has ``source_gate`` at the top and in
each result (version 2 added it), the CSV a ``source_gate`` column (``on``/``off``), and the table
a line under the counts when the gate was off. A CSV cell never starts like a formula (``cell``).
"""

from __future__ import annotations

import csv
import io
import json

from judge.gate.switch import setting
from judge.grade.verdicts import counts, plural
from judge.run.boundary import escape

COLUMNS = ("submission", "verdict", "reason", "passed", "total", "time_s", "message", "source_gate")
VERSION = 2


def _gate(record: dict) -> bool:
    return record.get("source_gate", True)  # journals before the switch graded with the gate on


def _field(record: dict, key: str):
    return _gate(record) if key == "source_gate" else record[key]


def render_text(problem: str, records: list[dict]) -> str:
    width = max([len("submission")] + [len(r["submission"]) for r in records])
    lines = [f"{'submission':<{width}}  verdict  {'reason':<26} passed   time"]
    for r in records:
        lines.append(f"{r['submission']:<{width}}  {r['verdict']:<7}  {r['reason']:<26} "
                     f"{r['passed']:>3}/{r['total']:<3} {r['time_s']:6.2f}s")
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
        writer.writerow([cell(setting(_gate(r)) if k == "source_gate" else r[k]) for k in COLUMNS])
    return out.getvalue()


FORMATS = {"text": render_text, "json": render_json, "csv": render_csv}
