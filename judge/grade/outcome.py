"""A case's result in words: the ``CaseResult`` of a reason and a message (a hidden case's
message logged judge-side and replaced by its fixed text), an error of the submission as a
sentence, and why a case the worker never reported failed (a limit, tampering, the end of the
process)."""

from __future__ import annotations

import logging
import signal as signals

from judge.grade import example_diff
from judge.grade.verdicts import HIDDEN_MESSAGES, REASONS, CaseResult
from judge.problem.model import seconds
from judge.run.boundary import ErrorReport
from judge.run.supervisor import WorkerRun


#: The judge-side log: the full message of every hidden case (never shown in a report).
LOG = logging.getLogger("judge.grade.grading")  # the name operators configure

#: Characters of a case's message at most: it is one line of a report and one cell of a
#: gradebook, whatever the submission made the judge say about its output.
MAX_MESSAGE = 2000


def result(case, reason: str, message: str, time_s=None, details=None) -> CaseResult:
    verdict = REASONS[reason]
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + " [...]"
    if case.visibility == "hidden":
        LOG.info("hidden %d (%s): %s [%s] %s", case.number, case.name, verdict.value, reason, message)
        message = HIDDEN_MESSAGES.get(reason) or verdict.title.lower()
    details = dict(details or {}) if case.visibility == "example" else {}
    if case.visibility == "example" and reason != "ok":
        # what a failing example is, so that it can be reproduced (examples are public): its
        # inputs, the cotangent/tangent the judge differentiated along, the expected output
        details["inputs"] = example_diff.plain(dict(case.inputs))
        details["expected"] = example_diff.plain(dict(case.expected))
        if case.probe_inputs:
            details["probe"] = example_diff.plain(dict(case.probe_inputs))
    return CaseResult(index=case.index, name=case.name, visibility=case.visibility,
                      number=case.number, verdict=verdict, reason=reason, message=message,
                      time_s=time_s, details=details)


def with_diff(details: dict, case, got, mismatch) -> dict:
    """A failing example's ``details`` with what its report shows of the mismatch
    (``example_diff.diff``); a hidden case's details are never shown (``result`` drops them),
    so its diff is not made."""
    if case.visibility != "example":
        return details
    return {**details, "diff": example_diff.diff(case, got, mismatch)}


def error_text(error: ErrorReport, name: str | None = None) -> str:
    """``TYPE at line N of FILE, `SOURCE LINE`: MESSAGE``. ``name`` is the student's file name
    (the worker sees the file as ``submission.py``); the source line is quoted with backticks,
    so its own brackets never unbalance the sentence."""
    where = f" at line {error.line}" + (f" of {name}" if name else "") if error.line else ""
    source = f", `{error.source.strip()}`" if error.source and error.source.strip() else ""
    message = error.message.replace("submission.py", name) if name else error.message
    return f"{error.type}{where}{source}: {message}".strip()


def tasks_refused(run: WorkerRun, case, error: ErrorReport | None = None) -> bool:
    """Did this case fail because the kernel refused a task (``limits.tasks``)? A case reported
    with an error counts from the case during which the refusal was first seen; under
    RLIMIT_NPROC, where the judge cannot see refusals, an error saying a thread could not
    start does."""
    if run.tasks_exceeded_at is not None:
        reported = list(run.cases)
        position = reported.index(case.index) if case.index in reported else len(reported)
        if position >= run.tasks_exceeded_at:
            return True
    return (error is not None and run.task_bound == "rlimit" and error.type == "RuntimeError"
            and "can't start new thread" in error.message)


#: Signals that end a process from outside it (a program's own fault raises SIGSEGV, SIGABRT,
#: SIGFPE, SIGBUS, SIGILL, SIGSYS...). One of these ending a worker that the judge did not stop,
#: past every limit the judge sets (time, CPU time, memory, output, tasks), is the host's doing
#: (its out-of-memory killer, an administrator's kill): ``worker_killed``, the judge's fault.
EXTERNAL_SIGNALS = frozenset({signals.SIGKILL, signals.SIGTERM, signals.SIGHUP, signals.SIGINT})


def killed_from_outside(run: WorkerRun) -> bool:
    """Did a signal the judge did not send end this worker, past the judge's CPU time limit
    (whose hard limit is a SIGKILL of the kernel's)?"""
    if run.signal not in EXTERNAL_SIGNALS or run.stopped:
        return False
    return not (run.signal == signals.SIGKILL and run.cpu_s is not None
                and run.cpu_s >= float(run.limits["cpu_s"]))


def missing_case(case, run: WorkerRun, name: str | None = None) -> CaseResult:
    """No result for this case: decide why from how the worker ended.

    A limit, tampering or the end of the process decides every case not reported before it.
    Text that came from the worker after the submission was imported (a halt's detail) is shown
    for examples only: on a hidden case it could carry hidden data out.
    """
    import signal

    limits, halt = run.limits, run.halt
    cause = halt.cause if halt else None
    detail = f" ({halt.detail})" if halt and halt.detail and case.visibility == "example" else ""
    if run.tampered:
        return result(case, "channel_tampered",
                       f"the result channel was tampered with: {run.tampered}")
    if run.protocol_error:
        return result(case, "worker_protocol", f"the worker broke the result protocol: {run.protocol_error}")
    if cause == "instrument_tampered":
        return result(case, "instrument_tampered", "the submission replaced functions the judge's "
                                                    f"instruments rely on{detail}")
    if run.output_exceeded:
        return result(case, "output_limit", f"output limit exceeded: stdout and stderr passed "
                                             f"{limits['output_kb']} KiB")
    if cause == "output_limit" or run.signal == signal.SIGXFSZ:
        return result(case, "output_limit", f"output limit exceeded: the captured output or a "
                                             f"file passed {limits['output_kb']} KiB, or the value "
                                             f"returned was far larger than the problem's output{detail}")
    if cause == "memory_limit":
        return result(case, "memory_limit", f"memory limit exceeded: {limits['memory_mb']} MiB of "
                                             f"address space beyond JAX's own{detail}")
    if tasks_refused(run, case):
        return result(case, "task_limit", f"the submission tried to have more than "
                                           f"{limits['tasks']} threads and processes at once")
    if run.timed_out:
        if run.timeout_phase == "startup":
            return result(case, "time_limit", f"importing the submission took longer than "
                                               f"{seconds(limits['startup_s'])} s (the worker was killed)")
        if run.timeout_phase == "run":
            return result(case, "time_limit", f"the whole run took longer than {limits['wall_s']} s "
                                               f"(the worker was killed)")
        return result(case, "time_limit", f"time limit exceeded: a case may take "
                                           f"{seconds(limits['time_per_case_s'])} s (the worker was killed)")
    loaded = run.loaded
    if loaded and not loaded.ok:
        error = loaded.error
        reason = {"syntax_error": "syntax_error", "missing_entry_point": "missing_entry_point",
                  "exit": "exit_called"}.get(error.kind, "import_exception")
        return result(case, reason, f"while importing {name or 'the submission'}: "
                                     f"{error_text(error, name)}",
                       details={"stdout": loaded.stdout, "stderr": loaded.stderr})
    if run.ready is None:  # the submission is imported only after "ready": this is the judge's fault
        return result(case, "worker_start", f"the worker could not start (status {run.returncode}"
                                             f"): {run.stderr.strip()[-500:] or 'no output'}")
    if run.signal == signal.SIGXCPU or (run.signal == signal.SIGKILL and run.cpu_s is not None
                                        and run.cpu_s >= float(limits["cpu_s"])):
        return result(case, "cpu_time_limit", f"CPU time limit exceeded: {limits['cpu_s']} s for "
                                               f"the whole run (the worker was killed)")
    if run.lingered:
        return result(case, "exited_early", "the process closed its result channel before "
                                             "reporting this case (and was then stopped)")
    if killed_from_outside(run):
        return result(case, "worker_killed", f"the worker was killed by signal {run.signal}, "
                                              f"which the judge did not send (the host's "
                                              f"out-of-memory killer, or an administrator): the "
                                              f"judge's fault, not the submission's")
    if run.signal is not None:
        return result(case, "killed_by_signal", f"the process was killed by signal {run.signal}")
    return result(case, "exited_early", f"the process exited (status {run.returncode}) before "
                                         f"reporting this case")
