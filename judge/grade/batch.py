"""Grading a whole class: every submission in a folder, in parallel, resumable.

Each submission is graded by ``grading.grade`` (through ``regrade``: an internal error is
graded again) in its own worker process, so one crash or time
out never stops the others. A submission is taken in by ``judge.grade.intake``: the student's own
regular file, read once without following a link, and graded from a private copy. A link, a
FIFO, a device, a folder named ``*.py`` or an oversized file gets its own row, ``CE
bad_submission_file``, saying what it is; nothing in one student's folder stops, hangs or
exhausts the batch.

Every finished grade is appended at once to the judge's own journal (``judge.grade.journal``,
outside the class folder, each line authenticated); ``resume`` skips submissions whose file and
basis (spec, reference, judge, gate and sandbox) are unchanged since they were recorded, and
grades again those the judge failed on (``IE``). Submissions go longest first
(``judge.grade.order``): by the times the journal kept, and, where none is known, a source with a
Python ``while`` loop ahead of the rest. A record keeps what the student would be shown
(the text report and Gradescope's ``results.json``), so feedback can be handed out from a resumed
batch too, and the source's look-alike fingerprint (``judge.grade.lookalike``), so every record
returned lists its look-alikes (``similar_to``). Entries are keyed by their exact name in the
class folder, and shown with an escape that keeps different names different
(``intake.shown``).

With ``remote`` (``judge batch --queue``), the submissions are graded by the service's graders
instead of local workers (``judge.service.class_queue``); the journal, resume and records are the
same.

A row is named after its entry in the class folder (``row_names``): ``alice.py`` is ``alice``,
the folder ``bob/`` is ``bob``. Two entries that would get the same name (``alice.py`` and a
folder ``alice/``) are both shown by their full entry (``alice.py``, ``alice/``), never merged.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import stat
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from judge import gate
from judge.errors import JudgeError
from judge.grade import intake, lookalike, pool, scoring
from judge.grade.order import longest_first, open_ended
from judge.grade.regrade import grade
from judge.grade.journal import Journal, basis as grading_basis
from judge.problem.model import Problem
from judge.reports import batch_report, gradescope, json_report, text
from judge.reports.progress import Progress
from judge.run import imports
from judge.run.settings import Settings, of as resolve_settings

#: The judge-side log: what went wrong when a submission could not be graded.
LOG = logging.getLogger("judge.grade.batch")
PREFERRED_NAMES = ("solution.py", "submission.py")
#: A student folder is searched this deep, and up to this many entries (a folder with more is
#: refused: no honest upload holds that many).
MAX_DEPTH, MAX_ENTRIES = 16, 20_000
BAD = "bad_submission_file"


@dataclass(frozen=True)
class Entry:
    """One row of the batch: ``key`` is the entry's exact name in the class folder (a file or a
    student folder; undecodable bytes kept as surrogates), unique, the journal's key; ``name``
    is how reports show it (``intake.shown``: one line, and different names look different);
    ``parts`` the file to grade, below the class folder, or None with ``reason`` and
    ``problem_note`` saying why there is none."""

    key: str
    name: str
    parts: tuple[str, ...] | None
    reason: str = ""
    problem_note: str = ""
    folder: bool = False  # a student folder (or a link to one), not a file directly in the class


def row_name(key: str, folder: bool) -> str:
    """A row's name: the entry's name, without ``.py`` for a file (``alice.py`` -> ``alice``;
    the folder ``bob`` stays ``bob``), escaped (``intake.shown``)."""
    return intake.shown(key if folder or not key.endswith(".py") else key[:-3])


def _full_name(entry: Entry) -> str:
    """The entry as it is in the class folder: ``alice.py``, ``alice/``; unique in a folder."""
    return intake.shown(entry.key) + ("/" if entry.folder else "")


def row_names(entries: list[Entry]) -> list[Entry]:
    """``entries`` with names that are all different: any that share a name (``alice.py`` and
    the folder ``alice``) are each named by their full entry instead."""
    while True:
        seen = Counter(e.name for e in entries)
        clashes = [e for e in entries if seen[e.name] > 1 and e.name != _full_name(e)]
        if not clashes:
            return entries
        entries = [replace(e, name=_full_name(e)) if seen[e.name] > 1 else e for e in entries]


class _TooMany(Exception):
    pass


def _walk(dir_fd: int, prefix: tuple[str, ...], found: list, budget: list[int]) -> None:
    """Every ``*.py`` entry (of any kind) below ``dir_fd``, with its mode; folders are entered
    without following links, dot-names skipped."""
    with os.scandir(dir_fd) as items:
        for item in items:
            budget[0] -= 1
            if budget[0] < 0:
                raise _TooMany
            if item.name.startswith("."):
                continue
            mode = item.stat(follow_symlinks=False).st_mode
            parts = prefix + (item.name,)
            if item.name.endswith(".py"):
                found.append(parts)
            if stat.S_ISDIR(mode) and len(parts) < MAX_DEPTH:
                inner = os.open(item.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
                                | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
                try:
                    _walk(inner, parts, found, budget)
                finally:
                    os.close(inner)


def _student(folder: Path, key: str, entry_point: str) -> Entry:
    """The row of a student folder: its ``solution.py``, ``submission.py`` or
    ``<entry_point>.py`` (the shallowest), else its only ``.py`` entry."""
    name = intake.shown(key)
    row = partial(Entry, key, row_name(key, folder=True), folder=True)
    found: list[tuple[str, ...]] = []
    try:
        fd = os.open(folder / key, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK
                     | os.O_CLOEXEC)
        try:
            _walk(fd, (), found, [MAX_ENTRIES])
        finally:
            os.close(fd)
    except _TooMany:
        return row(None, BAD, f"{name}: holds more than {MAX_ENTRIES} entries; "
                              f"the judge does not search it")
    except OSError as exc:
        return row(None, BAD, f"{name}: cannot be read ({exc.strerror or exc})")
    files = sorted(found, key=lambda parts: (len(parts), parts))
    named = [p for n in (*PREFERRED_NAMES, f"{entry_point}.py") for p in files if p[-1] == n]
    chosen = named[0] if named else files[0] if len(files) == 1 else None
    if chosen:
        return row((key, *chosen))
    note = "no .py file" if not files else \
        f"{len(files)} .py files and none named {' or '.join(PREFERRED_NAMES)}"
    return row(None, "no_submission", note)


def _links_to_folder(path: Path) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)  # stat, not open: a FIFO there is not opened
    except OSError:
        return False


def collect(folder: Path, entry_point: str) -> list[Entry]:
    """One entry per ``.py`` file directly in ``folder`` and per student sub-folder (see
    ``_student``), in name order, named by ``row_names``. A ``.py`` entry that is no regular file
    (a link, dangling or not, a FIFO, a device) and a student folder that is a link get a row
    that refuses them; its message names the entry itself."""
    if not folder.is_dir():
        raise JudgeError(f"{folder}: not a folder of submissions")
    with os.scandir(folder) as items:
        listed = sorted((item.name, item.stat(follow_symlinks=False).st_mode) for item in items
                        if not item.name.startswith("."))
    entries = []
    for key, mode in listed:
        shown = intake.shown(key)
        if stat.S_ISLNK(mode):
            if key.endswith(".py"):
                entries.append(Entry(key, row_name(key, False), None, BAD,
                                     f"{shown}: {intake.kind(mode)}"))
            elif _links_to_folder(folder / key):
                entries.append(Entry(key, row_name(key, True), None, BAD,
                                     f"{shown}: is a symbolic link; a student's folder must be the "
                                     f"folder itself, not a link to one", folder=True))
        elif stat.S_ISDIR(mode):
            entries.append(_student(folder, key, entry_point))
        elif key.endswith(".py"):  # a regular file, or a FIFO or device refused when it is read
            entries.append(Entry(key, row_name(key, False), (key,)))
    return row_names(entries)


def _take(folder: Path, entry: Entry) -> intake.Submission | str:
    """The entry's file, read once; or why it cannot be graded."""
    try:
        return intake.read_beneath(folder, entry.parts)
    except intake.Refused as exc:
        return str(exc)


def ungraded(problem: Problem) -> dict:
    """The graded fields of a record whose submission was not graded: no case passed."""
    return {"time_s": 0.0, "passed": 0, "total": len(problem.cases), "score": 0,
            "max_score": scoring.maximum(problem), "groups": [], "hint": ""}


def _start(entry: Entry, folder: Path, problem: Problem, settings: Settings,
           source_gate: bool, shared: set[str] = frozenset()
           ) -> tuple[dict, intake.Submission | None]:
    """The start of ``entry``'s record (its name, file, digest and look-alike ``fingerprint``,
    ``shared`` being the problem's own code) and the submission to grade; or, for an entry that
    cannot be graded, its whole ``CE`` record and None."""
    base = {"key": entry.key, "submission": entry.name, "sha256": "", "fingerprint": None,
            "file": intake.shown("/".join(entry.parts)) if entry.parts else None,
            "source_gate": source_gate, "sandbox": settings.sandbox}
    if entry.parts is None:
        return {**base, "verdict": "CE", "reason": entry.reason, "message": entry.problem_note,
                **ungraded(problem)}, None
    taken = _take(folder, entry)
    if isinstance(taken, str):
        return {**base, "verdict": "CE", "reason": BAD, "message": taken, **ungraded(problem)}, None
    base["sha256"] = taken.sha256
    base["fingerprint"] = lookalike.fingerprint(taken.data, problem.entry_point, shared)
    return base, taken


def grade_entry(entry: Entry, folder: Path, problem: Problem, settings: Settings,
                source_gate: bool, shared: set[str] = frozenset()) -> dict:
    """The journal's record of grading ``entry``: the batch report's fields
    (``batch_report.from_report``), the submission's ``fingerprint`` (``judge.grade.lookalike``,
    ``shared`` being the problem's own code), and what ``judge grade`` shows the student:
    ``feedback`` (the text report) and ``gradescope`` (its ``results.json``)."""
    base, taken = _start(entry, folder, problem, settings, source_gate, shared)
    if taken is None:
        return base
    try:
        result = grade(problem, taken, source_gate=source_gate, sandbox=settings)
    except JudgeError as exc:
        return failed(base, problem, str(exc))
    except Exception as exc:  # noqa: BLE001 - one submission's failure never stops the batch
        # The text of an unexpected error is not a report's: it could quote anything. It goes
        # to the judge-side log, with its traceback.
        LOG.exception("judge batch: grading %s failed", entry.name)
        return failed(base, problem,
                      f"internal error ({type(exc).__name__}) while grading this submission")
    return {**base, **batch_report.from_report(json_report.to_dict(result)),
            "feedback": text.render(result), "gradescope": gradescope.to_dict(result)}


def failed(base: dict, problem: Problem, message: str) -> dict:
    """The ``IE`` record of a submission the judge could not grade (``base``: its start)."""
    return {**base, "verdict": "IE", "reason": "judge_error", "message": message,
            **ungraded(problem)}


def _lost(entry: Entry, why: str, *, folder: Path, problem: Problem, settings: Settings,
          source_gate: bool, shared: set[str]) -> dict:
    """The record of an entry whose grading process ended before answering for it (``IE``:
    a resume grades it again); an entry that cannot be graded gets its own ``CE`` record."""
    base, taken = _start(entry, folder, problem, settings, source_gate, shared)
    if taken is None:
        return base
    return failed(base, problem, f"not graded: {why}; `judge batch --resume` grades it again")


def _earlier(path: Path, problem_id: str, how: dict, basis: str, secret: bytes | None) -> list[dict]:
    """The records of the journal at ``path`` that a restart is about to replace, for the order
    of grading only (``longest_first``); none when there is no journal there or it could not be
    resumed (another problem, graded another way, not this judge's). Read as a resume reads it."""
    if not path.is_file() or path.is_symlink():
        return []
    try:
        old = Journal(path, problem_id, True, how, basis=basis, secret=secret)
    except (JudgeError, OSError):
        return []
    old.close()
    return list(old.records.values())


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
              progress: Progress | None = None, source_gate: bool | None = None,
              secret: bytes | None = None, restart: bool = False, remote=None) -> list[dict]:
    """Grade every submission in ``folder``; return one record per entry, in name order.
    ``sandbox``: the command's ``judge.run.settings.Settings``, or a ``--sandbox`` value, resolved
    once here; ``source_gate`` as for ``grading.grade``, resolved once here too (one warning when
    $JUDGE_SOURCE_GATE turns it off); ``progress`` (``judge.reports.progress``) gets its ``total``
    set and a line per finished submission; ``secret``: the journal's key (default: the judge's,
    ``journal.key``); ``restart`` replaces the journal with a new one (every submission graded
    again). Submissions are graded longest first where earlier grades in the journal say how
    long they take, and those whose source has a Python ``while`` loop first where nothing is
    known of them (``judge.grade.order``). Raise JudgeError when ``resume`` meets a journal of
    another problem, graded with the gate set the other way or in another sandbox, or not
    written by this judge, and before grading anything when the workers would not import the
    judge's JAX (``judge.run.imports``).

    ``remote``: grade elsewhere instead of in local workers (``judge.service.class_queue``: the
    service's graders, over Redis); its ``grade(problem, journal_id, how, [(record, submission),
    ...])`` yields each finished record. The journal, resume and reports are the same; the
    source gate must be on, as the graders always grade with it."""
    settings = resolve_settings(sandbox)
    gate_on, gate_source = gate.requested(source_gate)
    if remote is not None:
        if not gate_on:
            raise JudgeError("--queue: the service's graders always grade with the source gate "
                             "on; leave out --source-gate off (and $JUDGE_SOURCE_GATE=off)")
    else:
        imports.check(settings.python)  # workers that cannot import JAX: one error, not a row each
    if not gate_on and source_gate is None:
        gate.warn_off(gate_source)
    # a large -j: grading processes, started now, so that they start while the class is read
    lanes = pool.split(max(1, jobs)) if remote is None else []
    with pool.Pool(settings, lanes) if lanes else contextlib.nullcontext() as processes:
        entries = collect(folder, problem.entry_point)
        how = {"source_gate": gate_on, "sandbox": settings.sandbox}
        basis = grading_basis(problem, how)
        earlier = _earlier(journal_path, problem.id, how, basis, secret) if restart else []
        journal = Journal(journal_path, problem.id, resume, how, basis=basis, secret=secret,
                          restart=restart)
        try:
            todo, contents, guessed = [], {}, set()
            for entry in entries:
                taken = _take(folder, entry) if entry.parts else None
                sha = taken.sha256 if isinstance(taken, intake.Submission) else ""
                if not journal.reusable(entry.key, sha):
                    todo.append(entry)
                    contents[entry.key] = sha
                    if isinstance(taken, intake.Submission) and open_ended(taken.data):
                        guessed.add(entry.key)
            todo = longest_first(todo, contents, [*journal.records.values(), *earlier], guessed)
            if progress is not None:
                progress.total = len(todo)
            tally: Counter = Counter()
            shared = lookalike.starter(problem)
            if remote is not None:
                started = [_start(entry, folder, problem, settings, gate_on, shared) for entry in todo]
                sent = [(base, taken) for base, taken in started if taken is not None]
                done = itertools.chain((base for base, taken in started if taken is None),
                                       remote.grade(problem, journal.id, how, sent))
                for record in done:
                    journal.add(record)
                    if progress is not None:
                        _finished(progress, tally, record)
            else:
                for record in _graded_here(todo, folder, problem, settings, gate_on, shared, basis,
                                           jobs, processes):
                    journal.add(record)
                    if progress is not None:
                        _finished(progress, tally, record)
        finally:
            journal.close()
    # named as this batch names its rows, whatever name an older journal recorded
    records = [{**journal.records[e.key], "submission": e.name} for e in entries
               if e.key in journal.records]
    alike = lookalike.similar({r["submission"]: r.get("fingerprint") for r in records})
    return [{**r, "similar_to": alike[r["submission"]]} for r in records]


def _graded_here(todo: list[Entry], folder: Path, problem: Problem, settings: Settings,
                 gate_on: bool, shared: set[str], basis: str, jobs: int,
                 processes: "pool.Pool | None"):
    """Each entry of ``todo`` graded on this machine, in ``jobs`` lanes, yielded as it finishes:
    in this process, or, for a large ``jobs``, by ``processes`` (``judge.grade.pool``)."""
    if processes is not None:
        yield from processes.grade(problem, folder, gate_on, basis, todo, partial(
            _lost, folder=folder, problem=problem, settings=settings, source_gate=gate_on,
            shared=shared))
        return
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as threads:
        futures = [threads.submit(grade_entry, entry, folder, problem, settings, gate_on, shared)
                   for entry in todo]
        for future in as_completed(futures):
            yield future.result()
