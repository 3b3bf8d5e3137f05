"""The API process's bookkeeping loop: records each graded result exactly once and puts lost
work back on the queue.

The database (``judge.service.store``) says what must happen; the queue only carries work. So:
- a grader's ``start`` notice moves the attempt to ``running`` with a lease; its heartbeats
  extend the lease; its result (in the queue's key-value store) is recorded by a conditional
  UPDATE, so a second result for the same submission (a late grader of an older attempt, a
  duplicate delivery) is logged in ``outcomes`` and never overwrites the first;
- a ``running`` attempt whose lease passes without a heartbeat (its grader was killed, or its
  machine lost) goes back to ``queued`` as the next attempt and is enqueued again, up to
  ``MAX_ATTEMPTS`` attempts; when the last one is lost too, the submission is recorded ``IE
  grader_lost`` (the judge's fault, never the student's verdict), rather than graded forever;
- a ``queued`` submission whose task is in no queue (the API was killed between its row and its
  task, or a grader between taking the task and claiming it) is enqueued again; if it was
  claimed, it is treated as running, and its lease decides.
``recover`` runs that sweep once at start, so a restart on the same ``--data`` finishes every
submission accepted before it. A grader's ``start`` notice also says its sandbox; the graders
seen grading without one are kept in ``unsandboxed`` (``/api/v1/health`` shows them).
"""

from __future__ import annotations

import json
import logging
import threading
import time

from judge.service import queue as q
from judge.service.outage import Outage, is_outage
from judge.service.store import Row, Store

log = logging.getLogger("judge.service")

#: An attempt without a heartbeat for this long is given up and graded again (seconds): several
#: heartbeats (``grader.HEARTBEAT_S``), so a busy machine is not mistaken for a dead one.
LEASE_S = 15.0
#: How often running attempts are checked for a result or an expired lease, and how often the
#: queue is searched for lost tasks (seconds).
POLL_S = 0.5
SWEEP_S = 10.0
#: Attempts of one submission whose graders may be lost before it is recorded IE grader_lost.
MAX_ATTEMPTS = 3


class Recorder:
    def __init__(self, store: Store, queue: q.Queue, lease_s: float = LEASE_S):
        self.store = store
        self.queue = queue
        self.lease_s = lease_s
        self._beats: dict[tuple[str, int], object] = {}
        self._lost: set[tuple[str, int]] = set()  # found in no queue by the last sweep
        self.unsandboxed: set[str] = set()  # graders whose start notice said sandbox none
        self.outage = Outage("the service's database or queue", log)  # as the loop finds them
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- the loop -------------------------------------------------------------------------
    def start(self) -> None:
        self.recover()
        self._thread = threading.Thread(target=self._loop, name="judge-recorder", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=5)

    def _loop(self) -> None:
        next_poll = next_sweep = time.monotonic()
        while not self._stop.is_set():
            try:
                busy = self.drain_events()
                now = time.monotonic()
                if now >= next_poll:
                    self.poll_running()
                    next_poll = now + POLL_S
                if now >= next_sweep:
                    self.sweep_queued()
                    next_sweep = now + SWEEP_S
            except Exception as exc:  # noqa: BLE001 - a queue that is down for a while: try again
                if is_outage(exc):
                    self.outage.failed(exc, "recording results")  # once, then backed off
                else:
                    log.exception("the service's bookkeeping failed; retrying")
                busy = False
                self._stop.wait(1.0)  # at most once a second while it fails
            else:
                self.outage.ok()
            if not busy:
                self._stop.wait(0.1)

    # -- the steps ------------------------------------------------------------------------
    def recover(self) -> None:
        """At start: record results that arrived while the API was down, give every running
        attempt a fresh lease (its grader may be alive on another machine) and enqueue again
        every queued submission whose task is lost."""
        for row in self.store.unfinished():
            if self.collect(row):
                continue
            if row.status == "running":
                self.store.extend(row.id, row.attempt, self.lease_s)
        self.sweep_queued(at_start=True)

    def drain_events(self, limit: int = 200) -> bool:
        """Handle up to ``limit`` notices from graders; True if there were any."""
        seen = 0
        while seen < limit:
            event = self.queue.next_event()
            if event is None:
                break
            seen += 1
            if not isinstance(event, dict) or not isinstance(event.get("id"), str):
                continue
            row = self.store.get(event["id"])
            if row is None:
                continue
            if event.get("event") == "start" and isinstance(event.get("attempt"), int):
                if event.get("sandbox") != "bwrap":
                    self.unsandboxed.add(str(event.get("grader"))[:200])
                self.store.start(row.id, event["attempt"], self.lease_s)
            elif event.get("event") == "done":
                self.collect(row)
        return seen > 0

    def poll_running(self) -> None:
        for row in self.store.unfinished("running"):
            if self.collect(row):
                continue
            key = (row.id, row.attempt)
            beat = self.queue.peek(q.beat_key(row.id, row.attempt))
            if beat is not None and self._beats.get(key) != beat:
                self._beats[key] = beat
                self.store.extend(row.id, row.attempt, self.lease_s)
            elif row.lease_until is not None and row.lease_until < time.time():
                self._beats.pop(key, None)
                if row.attempt >= MAX_ATTEMPTS:
                    self.give_up(row)
                elif self.store.retry(row.id, row.attempt):
                    log.warning("submission %s: attempt %d lost its grader; grading it again",
                                row.id, row.attempt)
                    self.queue.enqueue(row.id, row.attempt + 1, row.problem, row.source,
                                       row.mode, row.turn, row.inputs)

    def sweep_queued(self, at_start: bool = False) -> None:
        """Enqueue again every queued submission whose current attempt is in no queue and not
        claimed. A grader takes a task out of the queue a moment before it claims it, so a
        submission is enqueued again only when two sweeps in a row found it so (at start: the
        first time, as no grader of this API has started yet)."""
        queued = self.store.unfinished("queued")
        waiting = self.queue.pending() if queued else set()
        lost = set()
        for row in queued:
            if (row.id, row.attempt) in waiting or self.collect(row):
                continue
            if self.queue.peek(q.claim_key(row.id, row.attempt)) is not None:
                self.store.start(row.id, row.attempt, self.lease_s)  # its lease decides
            elif at_start or (row.id, row.attempt) in self._lost:
                self.queue.enqueue(row.id, row.attempt, row.problem, row.source, row.mode,
                                   row.turn, row.inputs)
            else:
                lost.add((row.id, row.attempt))
        self._lost = lost

    def collect(self, row: Row) -> bool:
        """Record the first result stored for any attempt of ``row``; True if it is done now.
        The keys of every attempt are removed once the database has the result."""
        if row.status == "done":
            self._forget(row)
            return True
        for attempt in range(row.attempt, 0, -1):
            stored = self.queue.peek(q.result_key(row.id, attempt))
            if not _valid(stored):
                continue
            if self.store.record(row.id, attempt, str(stored.get("verdict")), stored["report"]):
                log.info("submission %s: problem %s, %s, verdict %s, %.1f s after it was sent",
                         row.id, row.problem, row.mode, stored["verdict"],
                         time.time() - row.created)
            self._forget(row)
            return True
        return False

    def give_up(self, row: Row) -> None:
        """Record ``IE grader_lost`` for a submission whose last attempt lost its grader."""
        from judge.grade.verdicts import GradeResult, Verdict
        from judge.reports import json_report

        result = GradeResult(
            problem=row.problem, submission="submission.py", verdict=Verdict.IE,
            reason="grader_lost", time_s=0.0, cases=(),
            message=f"not graded: the grader of each of {row.attempt} attempts stopped answering "
                    f"(the judge's fault, not the submission's)",
            regraded=("grader_lost",) * (row.attempt - 1))
        if self.store.record(row.id, row.attempt, "IE", json_report.render(result)):
            log.error("submission %s: attempt %d lost its grader too, as did every earlier one; "
                      "recorded IE grader_lost", row.id, row.attempt)
        self._forget(self.store.get(row.id) or row)

    def _forget(self, row: Row) -> None:
        for attempt in range(1, row.attempt + 1):
            result = q.result_key(row.id, attempt)
            if row.status == "done" and self.queue.peek(result) is not None:
                stored = self.queue.peek(result)  # a late result: logged, never recorded
                self.store.record(row.id, attempt, str(stored.get("verdict")) if
                                  isinstance(stored, dict) else "?", "")
            for key in (q.claim_key(row.id, attempt), q.beat_key(row.id, attempt), result):
                self.queue.delete(key)
            self._beats.pop((row.id, attempt), None)


def _valid(stored) -> bool:
    """A result as a grader stores it: a verdict and a JSON report that is an object (anything
    else in the queue's store is not recorded)."""
    if not (isinstance(stored, dict) and isinstance(stored.get("verdict"), str)
            and isinstance(stored.get("report"), str)):
        return False
    try:
        report = json.loads(stored["report"])
    except ValueError:
        return False
    return isinstance(report, dict) and report.get("verdict") == stored["verdict"]
