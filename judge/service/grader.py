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

A task of mode ``batch`` is a submission of a class that ``judge batch --queue`` hands out
(``judge.service.class_queue``): graded the same way, under the file name the batch gives, only
when this grader's problem package is the batch's, with no notice to the API process.

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

from judge.service import class_task, queue as q
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
        from judge.grade.journal import judge_code
        from judge.run.settings import Settings

        self.name = f"{socket.gethostname()}:{os.getpid()}"
        # ``judge service`` passes settings it checked (``main.service_sandbox``); a mode given
        # here is resolved failing closed: bwrap unless it says none
        self.settings = (sandbox if isinstance(sandbox, Settings) else
                         Settings.resolve(sandbox, default="bwrap").check())
        self.queue = q.open_queue(queue_url, data, grade=self.grade_task)
        self.outage = Outage("the queue", log)  # logged once, then backed off, while it fails
        self._problems: dict = {}
        self._code = judge_code()  # the code this process loaded, as a class's batch compares it
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
        task = None
        if mode == class_task.MODE:  # a submission of a class (judge batch --queue)
            task = class_task.job(inputs)
            if task is None or queue.peek(class_task.alive_key(task["batch"])) is None:
                return  # not a class's task, or its batch has ended
        if not queue.put_if_empty(q.claim_key(sub_id, attempt), self.name):
            return  # this attempt is another delivery's
        self.outage.ok()  # a task read and claimed: the queue works
        log.info("grading %s: problem %s, %s, attempt %d", sub_id, problem_id, mode, attempt)
        started = time.monotonic()
        queue.put(q.beat_key(sub_id, attempt), 0)
        if task is None:  # the API process follows its own submissions; a batch reads the keys
            queue.notify({"event": "start", "id": sub_id, "attempt": attempt,
                          "grader": self.name, "sandbox": self.settings.sandbox})
        stop = threading.Event()
        beat = threading.Thread(target=self._beat, args=(sub_id, attempt, stop), daemon=True)
        beat.start()
        try:
            if task is not None:
                stored = class_task.answer(self, problem_id, source, task)
                verdict = stored.get("verdict", "refused (another problem package)")
            elif mode == "input":
                verdict, report = self.grade_input(problem_id, source, inputs)
            else:
                verdict, report = self.grade(problem_id, source, examples_only=mode == "examples")
            log.info("graded %s: problem %s, %s, verdict %s in %.1f s", sub_id, problem_id, mode,
                     verdict, time.monotonic() - started)
            if task is None:
                queue.put(q.result_key(sub_id, attempt), {"verdict": verdict, "report": report})
            elif queue.peek(class_task.alive_key(task["batch"])) is not None:
                queue.put(q.result_key(sub_id, attempt), stored)
        finally:
            stop.set()
            beat.join()
        if task is None:
            queue.notify({"event": "done", "id": sub_id, "attempt": attempt})
        elif queue.peek(class_task.alive_key(task["batch"])) is None:  # ended meanwhile
            for key in (q.claim_key, q.beat_key, q.result_key):
                queue.delete(key(sub_id, attempt))

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
        from judge.grade import intake
        from judge.reports import json_report

        submission = intake.Submission(name=SUBMISSION_NAME, data=source.encode(),
                                       label=SUBMISSION_NAME)
        result = self.result(problem_id, submission, examples_only)
        return result.verdict.value, json_report.render(result)

    def result(self, problem_id: str, submission, examples_only: bool = False):
        """The ``GradeResult`` of ``submission`` (``intake.Submission``) on ``problem_id``; an
        IE result if the judge itself fails."""
        from judge.errors import JudgeError
        from judge.grade.regrade import grade
        from judge.grade.verdicts import GradeResult, Verdict

        try:
            return grade(self.problem(problem_id), submission, sandbox=self.settings,
                         source_gate=True, examples_only=examples_only)
        except Exception as exc:  # noqa: BLE001 - the judge's fault: IE, recorded like any verdict
            log.exception("grading a submission to %s failed", problem_id)
            message = (f"not graded: {exc}" if isinstance(exc, JudgeError) else
                       f"internal error ({type(exc).__name__}); the service's log has the details")
            return GradeResult(problem=problem_id, submission=str(submission),
                               verdict=Verdict.IE, reason="judge_error", message=message,
                               time_s=0.0, cases=())

    def basis_parts(self, problem) -> dict:
        """What this grader's grades of ``problem`` depend on (``journal.basis_parts``), which a
        class's batch must share (``judge.service.class_queue``)."""
        from judge.grade.journal import basis_parts

        return basis_parts(problem, {"source_gate": True, "sandbox": self.settings.sandbox},
                           code=self._code)

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

