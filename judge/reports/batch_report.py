"""Reports of a batch: a table for people, JSON and CSV for scripts and gradebooks.

Every format says how the class was graded: the JSON report has ``source_gate`` at the top and in
each result (version 2 added it), the CSV a ``source_gate`` column (``on``/``off``), and the table
a line under the counts when the gate was off. A CSV cell never starts like a formula (``cell``).

Version 3 added each submission's points (``judge.grade.scoring``): ``score`` and ``max_score``,
also columns of the CSV and a column of the table. A record from before them shows them empty.

Version 4 added to each result what a student is told and what an instructor acts on:
``groups``, one ``{"name", "score", "max_score", "failed"}`` per scoring group the submission
was graded on (``failed``: the labels of its failing cases, ``example N (name)`` or ``hidden
N``: a hidden case is never named), ``hint`` (the hint of a known mistake the student is shown,
or ""), and ``similar_to``, the other submissions of the class that are the same program up to
names, comments and order (``judge.grade.lookalike``). The CSV has them as columns after
``source_gate``: ``hint``, ``similar_to`` (names separated by ``; ``) and one column per group,
``group:<name>``, holding the group's points (empty where it was not graded). The table adds,
under the counts, how many submissions earned each group, the hints shown and the look-alikes.
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
#: Version 4's keys of each JSON result, after ``COLUMNS``.
ADDED = ("groups", "hint", "similar_to")
GROUP_COLUMN = "group:"
VERSION = 4


def _label(case: dict) -> str:
    """A case of a JSON report as every report names it (``case_label``): ``example N (name)``
    or ``hidden N``."""
    text = f"{case.get('visibility')} {case.get('number', case.get('index'))}"
    return f"{text} ({case['name']})" if case.get("visibility") == "example" and case.get("name") \
        else text


def from_report(report: dict) -> dict:
    """A batch record's graded fields, from a ``judge grade --format json`` report (what
    ``judge batch`` and the service's class list both read): the verdict, counts, points, each
    group with its failing cases, and the hint."""
    cases = {c["index"]: c for c in report.get("cases", ())}
    groups = [{"name": g["name"], "score": g["score"], "max_score": g["max_score"],
               "failed": [_label(cases[i]) for i in g["cases"]
                          if i in cases and cases[i]["verdict"] != "AC"]}
              for g in report.get("groups", ())]
    return {"verdict": report["verdict"], "reason": report["reason"],
            "message": report["message"], "time_s": round(report.get("time_s") or 0.0, 3),
            "passed": sum(c["verdict"] == "AC" for c in cases.values()), "total": len(cases),
            "score": report.get("score"), "max_score": report.get("max_score"),
            "source_gate": report.get("source_gate", True), "groups": groups,
            "hint": report.get("hint", "")}


def group_names(records: list[dict]) -> list[str]:
    """The groups of the class, in the spec's order (a record graded on every case lists them
    all in order; one graded on fewer, fewer)."""
    names: list[str] = []
    for r in sorted(records, key=lambda r: -len(r.get("groups") or ())):
        names += [g["name"] for g in r.get("groups") or () if g["name"] not in names]
    return names


def _gate(record: dict) -> bool:
    return record.get("source_gate", True)  # journals before the switch graded with the gate on


def _field(record: dict, key: str):
    if key in ("score", "max_score"):
        return record.get(key)  # None: a record made before points were recorded
    if key in ADDED:
        return record.get(key, "" if key == "hint" else [])
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
    return "\n".join(lines + _class_lines(records)) + "\n"


def _class_lines(records: list[dict]) -> list[str]:
    """What the class did, to act on: each group and how many earned it (when the spec has
    groups), the hints shown and to whom, the look-alikes."""
    lines = []
    names = group_names(records)
    if names and not all(n.startswith(("example ", "hidden ")) for n in names):
        width = max(len(n) for n in names)
        lines += ["", "groups (submissions that earned each):"]
        for name in names:
            got = [g for r in records for g in r.get("groups") or () if g["name"] == name]
            earned = sum(g["score"] == g["max_score"] for g in got)
            lines.append(f"  {name:<{width}}  {earned}/{len(records)}")
    hints: dict[str, list[str]] = {}
    for r in records:
        if r.get("hint"):
            hints.setdefault(r["hint"], []).append(r["submission"])
    if hints:
        lines += ["", "hints shown:"]
        lines += [f"  {plural(len(who), 'submission')} ({', '.join(who)}): {hint}"
                  for hint, who in hints.items()]
    alike = [r for r in records if r.get("similar_to")]
    if alike:
        lines += ["", "look-alikes (the same program up to names, comments and order):"]
        seen: set[str] = set()
        for r in alike:
            if r["submission"] not in seen:
                group = [r["submission"], *r["similar_to"]]
                seen.update(group)
                lines.append("  " + ", ".join(group))
    return lines


def render_json(problem: str, records: list[dict]) -> str:
    return json.dumps({"version": VERSION, "problem": problem,
                       "source_gate": all(_gate(r) for r in records),
                       "counts": dict(counts(records)),
                       "results": [{k: _field(r, k) for k in COLUMNS + ADDED}
                                   for r in records]},
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
    names = group_names(records)
    writer.writerow(COLUMNS + ADDED[1:] + tuple(GROUP_COLUMN + n for n in names))
    for r in records:
        points = {g["name"]: g["score"] for g in r.get("groups") or ()}
        writer.writerow([cell(setting(_gate(r)) if k == "source_gate" else _field(r, k))
                         for k in COLUMNS]
                        + [cell(_field(r, "hint")), cell("; ".join(_field(r, "similar_to")))]
                        + [points.get(n, "") for n in names])
    return out.getvalue()


FORMATS = {"text": render_text, "json": render_json, "csv": render_csv}
