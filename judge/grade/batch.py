"""Grading a whole class: every submission in a folder, in parallel, resumable.

Each submission is graded by ``grading.grade`` in its own worker process, so one crash or time
out never stops the others. Every finished grade is appended at once to a journal (one JSON
line, flushed and synced); ``resume`` skips submissions whose file is unchanged since it was
recorded, and grades again those the judge failed on (``IE``). The final report is written from
the journal, atomically.

The journal's first line records the problem, whether the source gate was on and the sandbox, and
every record repeats them, so a report says how each submission was graded. A journal written
with the gate on is never resumed with it off (or the other way round), nor in another sandbox:
a class graded half one way and half the other would be judged by two standards.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from judge import gate
from judge.errors import JudgeError
from judge.grade.grading import grade
from judge.problem.model import Problem
from judge.reports.progress import Progress
from judge.run.boundary import escape
from judge.run.settings import Settings, of as resolve_settings

JOURNAL_VERSION = 2  # 2: the header and every record carry source_gate
#: The judge-side log: what went wrong when a submission could not be graded.
LOG = logging.getLogger("judge.grade.batch")
PREFERRED_NAMES = ("solution.py", "submission.py")


@dataclass(frozen=True)
class Entry:
    """One submission in the batch: its name (file or student folder, escaped as worker text is:
    a student chose it, and it reaches terminals and reports) and the file to grade."""

    name: str
    path: Path | None       # None: the student's folder holds no usable .py file
    problem_note: str = ""  # why path is None


def collect(folder: Path, entry_point: str) -> list[Entry]:
    """Submission files directly in ``folder``, and one file per student sub-folder (its
    ``solution.py``, ``submission.py`` or ``<entry_point>.py``, else its only .py file)."""
    if not folder.is_dir():
        raise JudgeError(f"{folder}: not a folder of submissions")
    entries = []
    for item in sorted(folder.iterdir()):
        if item.name.startswith("."):
            continue
        if item.is_file() and item.suffix == ".py":
            entries.append(Entry(escape(item.name), item))
        elif item.is_dir():
            files = sorted(p for p in item.rglob("*.py") if not any(part.startswith(".") for part in p.parts))
            named = [p for n in (*PREFERRED_NAMES, f"{entry_point}.py") for p in files if p.name == n]
            if named:
                entries.append(Entry(escape(item.name), named[0]))
            elif len(files) == 1:
                entries.append(Entry(escape(item.name), files[0]))
            else:
                note = "no .py file" if not files else \
                    f"{len(files)} .py files and none named {' or '.join(PREFERRED_NAMES)}"
                entries.append(Entry(escape(item.name), None, note))
    return entries


def digest(path: Path | None) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path else ""


#: How a batch is graded, as the journal records it: (what it is, its option, how to show it).
_SWITCHES = {"source_gate": ("the source gate", "--source-gate", gate.setting),
             "sandbox": ("the sandbox", "--sandbox", str)}


class Journal:
    """Append-only JSON lines; a torn last line (an interrupted write) is ignored on reading.

    ``how`` says how the submissions are graded (``source_gate``: bool, ``sandbox``: the mode);
    it is written in the header line and resuming a journal written another way is refused."""

    def __init__(self, path: Path, problem: str, resume: bool, how: dict | None = None):
        self.path = path
        self.how = dict(how or {"source_gate": True})
        self.records: dict[str, dict] = {}
        self._lock = threading.Lock()
        if path.exists():
            if not resume:
                raise JudgeError(f"{path}: a batch journal already exists; pass --resume to continue "
                                 f"it, or move it away to start over")
            self._read(problem)
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(path, "a", encoding="utf-8")
        if not self.records and path.stat().st_size == 0:
            self._write({"journal": JOURNAL_VERSION, "problem": problem, **self.how})

    def _read(self, problem: str) -> None:
        lines = self.path.read_text(encoding="utf-8").split("\n")
        good_bytes = 0
        header = None
        for i, line in enumerate(lines):
            try:
                record = json.loads(line) if line else None
            except ValueError:
                if i < len(lines) - 1:
                    raise JudgeError(f"{self.path}: line {i + 1} is not JSON; the journal is damaged") from None
                record = None  # torn final line: the grade it held is simply redone
            if record is None:
                continue
            good_bytes += len(line.encode("utf-8")) + 1
            if not isinstance(record, dict) or not ("journal" in record or
                                                    isinstance(record.get("submission"), str)):
                raise JudgeError(f"{self.path}: line {i + 1} is not a journal record; the journal "
                                 f"is damaged")
            if "journal" in record:
                if record.get("problem") != problem:
                    raise JudgeError(f"{self.path}: journal of problem {record.get('problem')!r}, "
                                     f"not {problem!r}")
                header = record
            elif header is None:
                raise JudgeError(f"{self.path}: line {i + 1} comes before the journal's header "
                                 f"line; the journal is damaged")
            self._same_way(record, i + 1)
            if record is not header:
                self.records[record["submission"]] = record
        with open(self.path, "r+b") as f:  # drop a torn tail so appends start on a fresh line
            f.truncate(min(good_bytes, os.path.getsize(self.path)))

    def _same_way(self, record: dict, line: int) -> None:
        """Refuse to resume a journal graded another way: the source gate set the other way, or
        another sandbox. A version 1 journal predates the gate switch (its gate was on) and did
        not record the sandbox; a sandbox that could not be used (``None``: every grade was
        ``IE``, and is graded again) matches any."""
        was = {"source_gate": True, **{k: record[k] for k in self.how if k in record}}
        for key, now in self.how.items():
            if key in was and was[key] != now and None not in (was[key], now):
                what, option, shown = _SWITCHES[key]
                where = "this batch was" if "journal" in record else f"line {line} was"
                raise JudgeError(f"{self.path}: {where} graded with {what} {shown(was[key])}; "
                                 f"resume it with {option} {shown(was[key])}, or move the journal "
                                 f"away to grade the class again with {what} {shown(now)}")

    def _write(self, record: dict) -> None:
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def add(self, record: dict) -> None:
        with self._lock:
            self._write(record)
            self.records[record["submission"]] = record

    def close(self) -> None:
        self._file.close()


def _record(entry: Entry, problem: Problem, sha: str, settings: Settings, source_gate: bool) -> dict:
    base = {"submission": entry.name, "file": str(entry.path) if entry.path else None, "sha256": sha,
            "source_gate": source_gate, "sandbox": settings.sandbox}
    if entry.path is None:
        return {**base, "verdict": "CE", "reason": "no_submission", "message": entry.problem_note,
                "time_s": 0.0, "passed": 0, "total": len(problem.cases)}
    try:
        result = grade(problem, entry.path, source_gate=source_gate, sandbox=settings)
    except JudgeError as exc:
        return {**base, "verdict": "IE", "reason": "judge_error", "message": str(exc),
                "time_s": 0.0, "passed": 0, "total": len(problem.cases)}
    except Exception as exc:  # noqa: BLE001 - one submission's failure never stops the batch
        # The text of an unexpected error is not a report's: it could quote anything. It goes
        # to the judge-side log, with its traceback.
        LOG.exception("judge batch: grading %s failed", entry.name)
        return {**base, "verdict": "IE", "reason": "judge_error",
                "message": f"internal error ({type(exc).__name__}) while grading this submission",
                "time_s": 0.0, "passed": 0, "total": len(problem.cases)}
    return {**base, "verdict": result.verdict.value, "reason": result.reason,
            "message": result.message, "time_s": round(result.time_s, 3),
            "passed": sum(c.verdict.value == "AC" for c in result.cases), "total": len(result.cases)}


def _finished(progress: Progress, tally: Counter, record: dict) -> None:
    """The progress line on a terminal (counts by verdict, rate); elsewhere one plain line per
    finished submission."""
    progress.done += 1
    tally[record["verdict"]] += 1
    step = f"[{progress.done}/{progress.total}]"
    counts_now = " ".join(f"{v}:{n}" for v, n in sorted(tally.items()))
    progress.show(f"{step} {counts_now}  {progress.rate():.2f}/s",
                  plain=f"{step} {record['submission']}: {record['verdict']} [{record['reason']}]")
    if progress.done == progress.total:
        progress.keep()


def run_batch(problem: Problem, folder: Path, journal_path: Path, *, jobs: int = 1,
              resume: bool = False, sandbox: Settings | str | None = None,
              progress: Progress | None = None, source_gate: bool | None = None) -> list[dict]:
    """Grade every submission in ``folder``; return one record per submission, in name order.
    ``sandbox``: the command's ``judge.run.settings.Settings``, or a ``--sandbox`` value, resolved
    once here; ``source_gate`` as for ``grading.grade``, resolved once here too (one warning when
    $JUDGE_SOURCE_GATE turns it off); ``progress`` (``judge.reports.progress``) gets its ``total``
    set and a line per finished submission. Raise JudgeError when ``resume`` meets a journal of
    another problem or graded with the gate set the other way."""
    settings = resolve_settings(sandbox)
    gate_on, gate_source = gate.requested(source_gate)
    if not gate_on and source_gate is None:
        gate.warn_off(gate_source)
    entries = collect(folder, problem.entry_point)
    journal = Journal(journal_path, problem.id, resume,
                      {"source_gate": gate_on, "sandbox": settings.sandbox})
    try:
        todo = []
        for entry in entries:
            sha = digest(entry.path)
            old = journal.records.get(entry.name)
            if not (old and old.get("sha256") == sha and old.get("verdict") != "IE"):
                todo.append((entry, sha))
        if progress is not None:
            progress.total = len(todo)
        tally: Counter = Counter()
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = [pool.submit(_record, entry, problem, sha, settings, gate_on)
                       for entry, sha in todo]
            for future in as_completed(futures):
                record = future.result()
                journal.add(record)
                if progress is not None:
                    _finished(progress, tally, record)
    finally:
        journal.close()
    names = [e.name for e in entries]
    return [journal.records[n] for n in names if n in journal.records]
