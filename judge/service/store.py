"""The database of submissions and results: SQLite, the service's source of truth.

A submission moves ``queued`` -> ``running`` -> ``done`` and never back, except that a
``running`` submission whose grader stopped answering (its lease expired) goes back to
``queued`` with the next ``attempt``. Every change is one conditional UPDATE that names the state
(and the attempt) it starts from, so two processes, or a result arriving late, can never both
win: ``record`` sets a result only on a submission not yet ``done``, and the first result
recorded is the one kept. Every result that arrives is also written to ``outcomes`` with whether
it was recorded, so "graded once" can be checked afterwards.

Only the API process writes here (graders talk to it through the queue, ``judge.service.queue``).
The source is stored as the student sent it; nothing here runs it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
create table if not exists submissions (
    id text primary key,
    owner text not null,            -- sha256 of the token that sent it, never the token
    problem text not null,
    source text not null,
    mode text not null default 'submit',  -- 'submit': every case; 'examples': the examples only;
                                          -- 'input': the student's own input (judge.service.input_run)
    status text not null check (status in ('queued', 'running', 'done')),
    attempt integer not null default 1,
    lease_until real,               -- running: re-enqueued once this passes without a heartbeat
    created real not null,
    finished real,
    verdict text,
    result text,                    -- the JSON report, once done
    turn integer not null default 0, -- its owner's round: graded in increasing turns (``add``)
    inputs text                     -- mode 'input': {"example": N, "inputs": {...}} as JSON
);
create index if not exists submissions_status on submissions (status);
create index if not exists submissions_owner_status on submissions (owner, status);
create index if not exists submissions_owner_created on submissions (owner, created);
create index if not exists submissions_status_turn on submissions (status, turn);
create table if not exists outcomes (
    submission text not null,
    attempt integer not null,
    recorded integer not null,      -- 1: this result became the submission's; 0: it came too late
    at real not null
);
"""


#: What a submission asks for: every case graded and scored, or a run of the public examples;
#: ``input`` is a run on one example's inputs as the student edited them (POST /api/v1/runs).
MODES = ("submit", "examples")
ALL_MODES = MODES + ("input",)


@dataclass(frozen=True)
class Row:
    id: str
    owner: str
    problem: str
    source: str
    status: str
    attempt: int
    lease_until: float | None
    verdict: str | None
    result: str | None
    mode: str = "submit"
    created: float = 0.0
    finished: float | None = None
    turn: int = 0
    inputs: str | None = None       # mode "input": the example's number and the inputs, as JSON


_COLUMNS = ("id, owner, problem, source, status, attempt, lease_until, verdict, result, mode, "
            "created, finished, turn, inputs")


@dataclass(frozen=True)
class Listed:
    """One line of a token's list of submissions (no source, no report)."""
    id: str
    problem: str
    mode: str
    status: str
    verdict: str | None
    score: float | None
    max_score: float | None
    created: float
    finished: float | None
    owner: str = ""


class Store:
    """The database at ``path``; safe to share between the API's threads."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False,
                                   isolation_level=None)
        self._db.execute("pragma journal_mode=wal")
        self._db.execute("pragma synchronous=full")  # a 202 means the row is on disk
        columns = {row[1] for row in self._db.execute("pragma table_info(submissions)")}
        if columns and "mode" not in columns:  # a database from before the examples-only runs
            self._db.execute("alter table submissions add column mode text not null "
                             "default 'submit'")
        if columns and "turn" not in columns:  # a database from before the rounds
            self._db.execute("alter table submissions add column turn integer not null "
                             "default 0")
        if columns and "inputs" not in columns:  # a database from before the runs on a student's input
            self._db.execute("alter table submissions add column inputs text")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _run(self, sql: str, params=()) -> sqlite3.Cursor:
        with self._lock:
            return self._db.execute(sql, params)

    def add(self, owner: str, problem: str, source: str, mode: str = "submit",
            inputs: str | None = None) -> str:
        """A new queued submission; its id. ``inputs``: with mode ``input`` only. Its turn is
        the round it is graded in, so that the owners take turns (the queue serves lower turns
        first): one past its owner's last unfinished submission, and never before the round the
        queue is at (the lowest turn still queued). So one owner's burst of 40 takes rounds 0
        to 39, and another owner's single submission, sent later, joins the round being served:
        it waits for about one grading per owner, not for the burst."""
        if mode not in ALL_MODES:
            raise ValueError(f"mode must be one of {ALL_MODES}, got {mode!r}")
        if (inputs is None) != (mode != "input"):
            raise ValueError("inputs go with the mode 'input', and only with it")
        sub_id = uuid.uuid4().hex
        with self._lock:
            self._db.execute(
                "insert into submissions (id, owner, problem, source, status, created, mode, "
                "inputs, turn) values (?, ?, ?, ?, 'queued', ?, ?, ?, max("
                "(select coalesce(max(turn) + 1, 0) from submissions where owner = ? and "
                "status != 'done'), "
                "(select coalesce(min(turn), 0) from submissions where status = 'queued')))",
                (sub_id, owner, problem, source, time.time(), mode, inputs, owner))
        return sub_id

    def list(self, owner: str | None, problem: str | None = None, limit: int = 20,
             offset: int = 0) -> tuple[int, list[Listed]]:
        """``owner``'s submissions (every owner's for None; to ``problem`` only, if given),
        newest first: how many there are in all, and ``limit`` of them from ``offset``."""
        where, params = "1 = 1", []
        if owner is not None:
            where, params = "owner = ?", [owner]
        if problem is not None:
            where, params = where + " and problem = ?", params + [problem]
        total = self._run(f"select count(*) from submissions where {where}",
                          params).fetchone()[0]
        rows = self._run(
            "select id, problem, mode, status, verdict, result, created, finished, owner from "
            f"submissions where {where} order by created desc, rowid desc limit ? offset ?",
            params + [limit, offset]).fetchall()
        return total, [Listed(r[0], r[1], r[2], r[3], r[4], *_score(r[5]), r[6], r[7], r[8])
                       for r in rows]

    def latest(self, problem: str) -> dict[str, Row]:
        """Each owner's latest graded submission (``submit`` mode, done) to ``problem``."""
        rows = self._run(f"select {_COLUMNS} from submissions where problem = ? and mode = "
                         f"'submit' and status = 'done' order by created, rowid",
                         (problem,)).fetchall()
        return {row.owner: row for row in map(lambda r: Row(*r), rows)}
    def progress(self, owner: str) -> dict[str, str]:
        """``owner``'s state on each problem it sent something to: ``solved`` where a
        submission (every case, not a run of the examples) was accepted, else ``attempted``."""
        rows = self._run("select problem, max(mode = 'submit' and verdict = 'AC') from "
                         "submissions where owner = ? group by problem", (owner,)).fetchall()
        return {problem: "solved" if solved else "attempted" for problem, solved in rows}

    def get(self, sub_id: str) -> Row | None:
        row = self._run(f"select {_COLUMNS} from submissions where id = ?", (sub_id,)).fetchone()
        return Row(*row) if row else None

    def unfinished(self, status: str | None = None) -> list[Row]:
        """Submissions not done (only those in ``status`` if given), oldest first."""
        where = "status = ?" if status else "status != 'done'"
        rows = self._run(f"select {_COLUMNS} from submissions where {where} order by created",
                         (status,) if status else ()).fetchall()
        return [Row(*r) for r in rows]

    def pending(self, owner: str | None = None) -> int:
        """How many submissions (of ``owner``, if given) are queued or running."""
        if owner is None:
            sql, params = ("select count(*) from submissions where status in ('queued', 'running')",
                           ())
        else:
            sql, params = ("select count(*) from submissions where owner = ? and status in "
                           "('queued', 'running')", (owner,))
        return self._run(sql, params).fetchone()[0]

    def start(self, sub_id: str, attempt: int, lease_s: float) -> bool:
        """queued -> running, for the submission's current attempt only."""
        cur = self._run("update submissions set status = 'running', lease_until = ? "
                        "where id = ? and attempt = ? and status = 'queued'",
                        (time.time() + lease_s, sub_id, attempt))
        return cur.rowcount == 1

    def extend(self, sub_id: str, attempt: int, lease_s: float) -> bool:
        cur = self._run("update submissions set lease_until = ? "
                        "where id = ? and attempt = ? and status = 'running'",
                        (time.time() + lease_s, sub_id, attempt))
        return cur.rowcount == 1

    def retry(self, sub_id: str, attempt: int) -> bool:
        """running (lease expired) -> queued with the next attempt."""
        cur = self._run("update submissions set status = 'queued', attempt = attempt + 1, "
                        "lease_until = null where id = ? and attempt = ? and status = 'running'",
                        (sub_id, attempt))
        return cur.rowcount == 1

    def record(self, sub_id: str, attempt: int, verdict: str, result: str) -> bool:
        """The submission's result, if it has none yet; True when this one was recorded. A result
        from an earlier attempt is as good as the current one's (the same source, problem and
        judge): whichever arrives first is kept, and every later one is only logged."""
        with self._lock:
            self._db.execute("begin immediate")
            try:
                cur = self._db.execute(
                    "update submissions set status = 'done', verdict = ?, result = ?, "
                    "finished = ?, lease_until = null where id = ? and status != 'done'",
                    (verdict, result, time.time(), sub_id))
                recorded = cur.rowcount == 1
                self._db.execute("insert into outcomes (submission, attempt, recorded, at) "
                                 "values (?, ?, ?, ?)", (sub_id, attempt, int(recorded), time.time()))
                self._db.execute("commit")
            except BaseException:
                if self._db.in_transaction:  # a failed COMMIT may have ended it already
                    try:
                        self._db.execute("rollback")
                    except sqlite3.Error:
                        pass  # the error raised is the one that made it fail, not this one
                raise
        return recorded


def _score(result: str | None) -> tuple[float | None, float | None]:
    """(score, max_score) of a stored JSON report; (None, None) without one."""
    if not result:
        return None, None
    try:
        report = json.loads(result)
    except ValueError:
        return None, None
    if not isinstance(report, dict):
        return None, None
    score, top = report.get("score"), report.get("max_score")
    number = (int, float)
    return (score if isinstance(score, number) else None,
            top if isinstance(top, number) else None)
