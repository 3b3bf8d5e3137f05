"""Infrastructure faults are the judge's (``judge.grade.regrade``): a worker killed from outside
(``kill -9`` of the innermost worker, as the host's out-of-memory killer or an administrator
would) mid-grade is graded again and gets its own verdict, with the attempt in its notes; only
a repeat is IE, never the student's RTE. The judge's own limit kills stay the student's."""

import json
import os
import signal
import threading
from pathlib import Path

import pytest

from judge.grade import regrade
from judge.grade.outcome import missing_case
from judge.grade.verdicts import GradeResult, Verdict
from judge.reports import json_report, text
from judge.run import collect, supervisor
from judge.run.supervisor import WorkerRun
from tests.helpers import ROOT

ACCEPTED = ROOT / "submissions" / "fake_quant_ste" / "accepted" / "closure_vjp.py"


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def innermost(pid: int) -> int:
    """The deepest process under ``pid`` (``pid`` itself without children): the worker, below
    bwrap's two processes when sandboxed."""
    while True:
        children = _children(pid)
        if not children:
            return pid
        pid = children[0]


@pytest.fixture
def kill_workers(monkeypatch, fq_problem):
    """Kills the innermost worker process with SIGKILL once it has reported its first case, in
    the first ``times`` runs (the fixture's value sets it); the number of kills is kept. The
    compilation cache is filled from the reference first, so that only the submission's own
    workers are killed (a fresh cache is filled by a worker of the reference's)."""
    from judge.grade import grading

    grading.warm_cache(fq_problem)
    monkeypatch.setenv("JUDGE_WARM", "off")  # fresh workers, whose process the test can see
    state = {"times": 1, "killed": 0, "pid": None}
    start_fresh, collect_run = supervisor._start_fresh, collect.collect

    def started(*args, **kwargs):
        proc = start_fresh(*args, **kwargs)
        state["pid"] = proc.popen.pid
        return proc

    def collecting(run, read_fd, started_at, startup, per_case, on_case, deadline, *more):
        armed = [state["killed"] < state["times"]]

        def case_reported():
            if armed[0] and run.cases:
                armed[0] = False
                state["killed"] += 1
                os.kill(innermost(state["pid"]), signal.SIGKILL)
            on_case()

        return collect_run(run, read_fd, started_at, startup, per_case, case_reported, deadline,
                           *more)

    monkeypatch.setattr(supervisor, "_start_fresh", started)
    monkeypatch.setattr(collect, "collect", collecting)
    return state


def test_a_worker_killed_from_outside_is_graded_again_and_accepted(fq_problem, kill_workers):
    # every case: the hidden ones are held back until the examples are reported, so the kill
    # at the first report always finds the worker with cases still to run
    result = regrade.grade(fq_problem, ACCEPTED)
    assert kill_workers["killed"] == 1
    assert result.verdict is Verdict.AC, (result.reason, result.message)
    assert result.regraded == ("worker_killed",)
    assert json.loads(json_report.render(result))["regraded"] == ["worker_killed"]
    assert "graded 2 times" in text.render(result)


def test_a_repeated_kill_is_an_internal_error_never_a_run_time_error(fq_problem, kill_workers):
    kill_workers["times"] = 10
    result = regrade.grade(fq_problem, ACCEPTED)
    assert kill_workers["killed"] == 2  # the first kill and its repeat; no third grade
    assert (result.verdict, result.reason) == (Verdict.IE, "worker_killed")
    assert result.regraded == ("worker_killed",)
    assert all(c.verdict is not Verdict.RTE for c in result.cases)


# --- whose kill it was ------------------------------------------------------------------------

def _ended(**observed) -> WorkerRun:
    from judge.run.boundary import Ready

    return WorkerRun(ready=Ready(protocol=1, python="3", jax="0"), **observed)


@pytest.mark.parametrize("observed, reason", [
    ({"signal": signal.SIGKILL}, "worker_killed"),            # kill -9 from outside
    ({"signal": signal.SIGTERM}, "worker_killed"),
    ({"signal": signal.SIGKILL, "stopped": True}, "killed_by_signal"),  # the judge's own kill
    ({"signal": signal.SIGKILL, "cpu_s": 500.0}, "cpu_time_limit"),     # RLIMIT_CPU's hard kill
    ({"signal": signal.SIGKILL, "timed_out": True, "stopped": True}, "time_limit"),
    ({"signal": signal.SIGKILL, "output_exceeded": True, "stopped": True}, "output_limit"),
    ({"signal": signal.SIGXFSZ}, "output_limit"),
    ({"signal": signal.SIGSEGV}, "killed_by_signal"),         # the program's own crash
    ({"signal": signal.SIGABRT}, "killed_by_signal"),
])
def test_only_a_kill_the_judge_did_not_make_is_the_judges_fault(fq_problem, observed, reason):
    case = fq_problem.cases[0]
    assert missing_case(case, _ended(**observed)).reason == reason


def test_the_tracing_worker_killed_from_outside_is_the_judges_fault_too():
    from types import SimpleNamespace

    from judge.grade import traces

    wanted = SimpleNamespace(index=0, trace=SimpleNamespace(name="wide", symbols=()))
    killed = traces.evidence(wanted, _ended(signal=signal.SIGKILL), str)
    assert killed.reason == "worker_killed"
    stopped = traces.evidence(wanted, _ended(signal=signal.SIGKILL, stopped=True,
                                             timed_out=True), str)
    assert stopped.reason == "trace_time_limit"  # the judge's own clock stopped it


# --- the policy, on stand-in grades ---------------------------------------------------------------

def _result(verdict, reason="ok"):
    return GradeResult(problem="p", submission="s.py", verdict=verdict, reason=reason,
                       message=reason, time_s=0.0, cases=())


def test_a_different_fault_is_tried_again_and_an_exception_that_repeats_is_raised(monkeypatch):
    answers = iter([_result(Verdict.IE, "worker_start"), _result(Verdict.IE, "worker_killed"),
                    _result(Verdict.WA, "wrong_value")])
    monkeypatch.setattr(regrade.grading, "grade", lambda *a, **k: next(answers))
    result = regrade.grade(None, "s.py")
    assert result.verdict is Verdict.WA
    assert result.regraded == ("worker_start", "worker_killed")
    calls = []

    def broken(*a, **k):
        calls.append(1)
        raise KeyError("judge bug")

    monkeypatch.setattr(regrade.grading, "grade", broken)
    with pytest.raises(KeyError):
        regrade.grade(None, "s.py")
    assert len(calls) == 2
    monkeypatch.setattr(regrade.grading, "grade", lambda *a, **k: _result(Verdict.RTE, "exception"))
    assert regrade.grade(None, "s.py").regraded == ()  # the student's verdicts: never regraded
    assert "regraded" not in json_report.to_dict(_result(Verdict.AC))
