"""Reports of a batch: a table for people, JSON and CSV for scripts and gradebooks."""

from __future__ import annotations

import csv
import io
import json

from judge.grade.verdicts import counts, plural

COLUMNS = ("submission", "verdict", "reason", "passed", "total", "time_s", "message")
VERSION = 1


def render_text(problem: str, records: list[dict]) -> str:
    width = max([len("submission")] + [len(r["submission"]) for r in records])
    lines = [f"{'submission':<{width}}  verdict  {'reason':<26} passed   time"]
    for r in records:
        lines.append(f"{r['submission']:<{width}}  {r['verdict']:<7}  {r['reason']:<26} "
                     f"{r['passed']:>3}/{r['total']:<3} {r['time_s']:6.2f}s")
    lines.append("")
    lines.append(f"{problem}: {plural(len(records), 'submission')}: " +
                 ", ".join(f"{n} {v}" for v, n in counts(records)))
    return "\n".join(lines) + "\n"


def render_json(problem: str, records: list[dict]) -> str:
    return json.dumps({"version": VERSION, "problem": problem, "counts": dict(counts(records)),
                       "results": [{k: r[k] for k in COLUMNS} for r in records]}, indent=2) + "\n"


def render_csv(problem: str, records: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in records:
        writer.writerow([r[k] for k in COLUMNS])
    return out.getvalue()


FORMATS = {"text": render_text, "json": render_json, "csv": render_csv}
