"""A grader: takes grading tasks from the queue and grades each exactly as ``judge grade`` does.

``grade_task`` is the Huey task. For one attempt of one submission it
1. claims the attempt (``put_if_empty``: a second delivery of the same attempt does nothing),
2. tells the API process it started (an ``events`` notice) and keeps a heartbeat while it grades,
3. grades the source (every case, or with ``mode`` ``examples`` the public examples only, as
   ``judge grade --examples-only``, or with ``input`` one example on the student's own inputs,
   ``judge.service.input_run``) through ``judge.grade.regrade.grade`` (an internal error, such
   as a worker killed from outside, graded again; only its repeat is IE): the submission is written to a
   private file by the same intake as ``judge grade`` (``intake.private_copy``), checked by the
   source gate (always on here) and run in the sandboxed worker with the problem's limits,
4. stores the student-facing JSON report (``judge.reports.json_report``) under the attempt's
   result key, where the API process reads it and records it once.

A grader never touches the API's database, so it can run on another machine against Redis
(``judge service --grader-only --queue redis://...``); it needs the same problems/ (the same
checkout of the judge) as the API.
"""

from __future__ import annotations

import json
import logging
import os
import re
import socket
import sys
import threading
import time

from judge.service import queue as q
from judge.service.outage import Outage, QueueLogFilter, is_outage

log = logging.getLogger("judge.service")

#: A grader refreshes its heartbeat this often while it grades (seconds).
HEARTBEAT_S = 2.0
#: What a problem id looks like (problems/<id>.yaml).
PROBLEM_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}")
#: The file name a submission's source is graded under (what the report's ``submission`` says).
SUBMISSION_NAME = "submission.py"


class Grader:
    """What one grader process needs: its queue, its sandbox settings and the problems it has
    loaded (each spec once)."""

    def __init__(self, queue_url: str | None, data, sandbox=None):
        from judge.run.settings import Settings

        self.name = f"{socket.gethostname()}:{os.getpid()}"
        # ``judge service`` passes settings it checked (``main.service_sandbox``); a mode given
        # here is resolved failing closed: bwrap unless it says none
        self.settings = (sandbox if isinstance(sandbox, Settings) else
                         Settings.resolve(sandbox, default="bwrap").check())
        self.queue = q.open_queue(queue_url, data, grade=self.grade_task)
        self.outage = Outage("the queue", log)  # logged once, then backed off, while it fails
        self._problems: dict = {}
        self._lock = threading.Lock()

    def problem(self, problem_id: str):
        """The bundled problem ``problem_id``; never a path (a task comes from the queue, which
        whoever reaches Redis can write to)."""
        from judge.errors import JudgeError
        from judge.problem import spec

        if not PROBLEM_ID.fullmatch(problem_id):
            raise JudgeError(f"{problem_id!r} is not a problem id")
        with self._lock:
            if problem_id not in self._problems:
                self._problems[problem_id] = spec.load(problem_id)
            return self._problems[problem_id]

    def grade_task(self, sub_id: str, attempt: int, problem_id: str, source: str,
                   mode: str = "submit", inputs: str | None = None):
        queue = self.queue
        if not queue.put_if_empty(q.claim_key(sub_id, attempt), self.name):
            return  # this attempt is another delivery's
        self.outage.ok()  # a task read and claimed: the queue works
        log.info("grading %s: problem %s, %s, attempt %d", sub_id, problem_id, mode, attempt)
        started = time.monotonic()
        queue.put(q.beat_key(sub_id, attempt), 0)
        queue.notify({"event": "start", "id": sub_id, "attempt": attempt, "grader": self.name,
                      "sandbox": self.settings.sandbox})
        stop = threading.Event()
        beat = threading.Thread(target=self._beat, args=(sub_id, attempt, stop), daemon=True)
        beat.start()
        try:
            if mode == "input":
                verdict, report = self.grade_input(problem_id, source, inputs)
            else:
                verdict, report = self.grade(problem_id, source, examples_only=mode == "examples")
            log.info("graded %s: problem %s, %s, verdict %s in %.1f s", sub_id, problem_id, mode,
                     verdict, time.monotonic() - started)
            queue.put(q.result_key(sub_id, attempt), {"verdict": verdict, "report": report})
        finally:
            stop.set()
            beat.join()
        queue.notify({"event": "done", "id": sub_id, "attempt": attempt})

    def _beat(self, sub_id: str, attempt: int, stop: threading.Event) -> None:
        count = 0
        while not stop.wait(HEARTBEAT_S):
            count += 1
            try:
                self.queue.put(q.beat_key(sub_id, attempt), count)
            except Exception as exc:  # noqa: BLE001 - a missed beat only shortens the lease
                if not is_outage(exc):
                    log.exception("heartbeat of %s failed", sub_id)
                else:
                    self.outage.failed(exc, f"keeping the heartbeat of {sub_id}")

    def grade(self, problem_id: str, source: str, examples_only: bool = False) -> tuple[str, str]:
        """(verdict, JSON report) of ``source`` on ``problem_id``, as ``judge grade --format
        json`` gives them (with ``examples_only``: as ``--examples-only`` does); an IE report if
        the judge itself fails."""
        from judge.errors import JudgeError
        from judge.grade import intake
        from judge.grade.regrade import grade
        from judge.grade.verdicts import GradeResult, Verdict
        from judge.reports import json_report

        try:
            submission = intake.Submission(name=SUBMISSION_NAME, data=source.encode(),
                                           label=SUBMISSION_NAME)
            result = grade(self.problem(problem_id), submission, sandbox=self.settings,
                           source_gate=True, examples_only=examples_only)
        except Exception as exc:  # noqa: BLE001 - the judge's fault: IE, recorded like any verdict
            log.exception("grading a submission to %s failed", problem_id)
            message = (f"not graded: {exc}" if isinstance(exc, JudgeError) else
                       f"internal error ({type(exc).__name__}); the service's log has the details")
            result = GradeResult(problem=problem_id, submission=SUBMISSION_NAME, verdict=Verdict.IE,
                                 reason="judge_error", message=message, time_s=0.0, cases=())
        return result.verdict.value, json_report.render(result)

    def grade_input(self, problem_id: str, source: str, inputs: str | None) -> tuple[str, str]:
        """(verdict, JSON report) of ``source`` on the student's own input (``inputs``: JSON
        ``{"example": N, "inputs": {...}}``, checked again here: the queue is not trusted),
        with the reference's output (``judge.service.input_run``); IE if the judge fails."""
        from judge.errors import JudgeError
        from judge.grade import intake
        from judge.grade.verdicts import GradeResult, Verdict
        from judge.reports import json_report
        from judge.service import input_run

        try:
            data = json.loads(inputs or "null")
            if not isinstance(data, dict):
                raise JudgeError("the run carries no inputs")
            problem = self.problem(problem_id)
            case = input_run.case(problem, data.get("example"), data.get("inputs"))
            submission = intake.Submission(name=SUBMISSION_NAME, data=source.encode(),
                                           label=SUBMISSION_NAME)
            report = input_run.grade(problem, submission, case, self.settings)
            return str(report["verdict"]), json.dumps(report, indent=2, allow_nan=False) + "\n"
        except Exception as exc:  # noqa: BLE001 - the judge's fault (or the queue's): IE
            log.exception("a run on a student's input to %s failed", problem_id)
            message = (f"not graded: {exc}" if isinstance(exc, (JudgeError, ValueError)) else
                       f"internal error ({type(exc).__name__}); the service's log has the details")
            result = GradeResult(problem=problem_id, submission=SUBMISSION_NAME, verdict=Verdict.IE,
                                 reason="judge_error", message=message, time_s=0.0, cases=())
            return result.verdict.value, json_report.render(result)

    def run(self, workers: int) -> None:
        """Consume grading tasks with ``workers`` threads until stopped (SIGINT/SIGTERM)."""
        from judge.run import warm

        warm.prestart(self.settings)  # the workers' JAX imports while the consumer starts
        for handler in logging.getLogger().handlers:  # Huey's "Error reading from queue", tamed
            handler.addFilter(QueueLogFilter(self.outage))
        consumer = self.queue.tasks.create_consumer(workers=workers, worker_type="thread",
                                                    periodic=False, initial_delay=0.05,
                                                    max_delay=0.5, backoff=1.5)
        print(f"judge service: grader {self.name} with {workers} worker(s) on "
              f"{self.queue.url or 'the SQLite queue'}", file=sys.stderr, flush=True)
        consumer.run()

