"""judge batch over several grading processes (judge.grade.pool, judge.grade.lanes): the same
records as one process, and nothing lost when a grading process dies or the batch is stopped."""

import io
import json
import os
import re
import signal

import pytest

from judge.errors import JudgeError
from judge.grade import batch, lanes, pool
from judge.problem import spec
from judge.reports.progress import Progress
from tests.test_batch import package  # noqa: F401  (the fixture)
from tests.test_third_problem import SOLUTIONS

KEPT = ("submission", "verdict", "reason", "message", "passed", "total", "score", "feedback",
        "gradescope", "sha256", "fingerprint", "file", "similar_to")


@pytest.fixture()
def bigger(package):  # noqa: F811
    """The package's class and four more students: two accepted, one wrong, one that fails."""
    cls = package / "class"
    for name, source in (("eve", "accepted/plain.py"), ("fay", "wrong_answer/sum_first.py"),
                         ("gil", "accepted/plain.py")):
        (cls / f"{name}.py").write_text(SOLUTIONS[f"submissions/axpy/{source}"])
    (cls / "hal.py").write_text("def axpy(x, y, alpha):\n    raise ValueError('no')\n")
    return package


def _kept(records):
    """The records without the times they were graded in."""
    text = json.dumps([{k: r.get(k) for k in KEPT} for r in records])
    return re.sub(r'\d+\.\d+ ?s\b|"execution_time": [\d.]+', "T", text)


@pytest.mark.parametrize("jobs, per, expected", [
    (1, 4, []), (7, 4, []), (8, 4, [4, 4]), (13, 4, [4, 3, 3, 3]), (16, 4, [4, 4, 4, 4]),
    (2, 1, [1, 1]), (3, 1, [1, 1, 1]), (64, 0, [])])
def test_lanes_are_split_between_processes_past_two_processes_worth(jobs, per, expected):
    assert pool.split(jobs, per) == expected
    assert sum(expected) in (0, jobs)


def test_lanes_per_process_from_the_environment(monkeypatch):
    monkeypatch.setenv("JUDGE_BATCH_LANES", "2")
    assert pool.split(4) == [2, 2]
    monkeypatch.setenv("JUDGE_BATCH_LANES", "many")
    with pytest.raises(JudgeError, match="JUDGE_BATCH_LANES"):
        pool.split(4)


@pytest.mark.parametrize("sandbox", [None, "none"])
def test_processes_grade_as_one_process_does_and_the_journal_resumes(bigger, monkeypatch,
                                                                     sandbox):
    problem = spec.load("axpy", root=bigger)
    alone = batch.run_batch(problem, bigger / "class", bigger / "alone.jsonl", jobs=2,
                            sandbox=sandbox)
    monkeypatch.setenv("JUDGE_BATCH_LANES", "1")
    progress = Progress(0, stream=io.StringIO())
    spread = batch.run_batch(problem, bigger / "class", bigger / "spread.jsonl", jobs=3,
                             progress=progress, sandbox=sandbox)
    assert _kept(spread) == _kept(alone)
    assert [r["verdict"] for r in spread] == ["AC", "WA", "CE", "CE", "AC", "WA", "AC", "RTE"]
    assert progress.done == progress.total == 8
    assert pool.last_usage["processes_cpu_s"] > 0
    for line in (bigger / "spread.jsonl").read_text().splitlines():
        json.loads(line)
    again = batch.run_batch(problem, bigger / "class", bigger / "spread.jsonl", jobs=3,
                            resume=True, progress=Progress(0, stream=io.StringIO()),
                            sandbox=sandbox)
    assert _kept(again) == _kept(spread)


def _killing(monkeypatch, when):
    """Kill grading process 0 with SIGKILL right after the batch sends it its ``when``-th entry
    with a file to grade."""
    sent = []
    real = pool._Process.send

    def send(self, message):
        ok = real(self, message)
        if self.index == 0 and message and "entry" in message and message["entry"]["parts"]:
            sent.append(message)
            if len(sent) == when:
                os.kill(self.proc.pid, signal.SIGKILL)
        return ok

    monkeypatch.setattr(pool._Process, "send", send)


def test_a_grading_process_that_dies_loses_nothing(bigger, monkeypatch):
    problem = spec.load("axpy", root=bigger)
    monkeypatch.setenv("JUDGE_BATCH_LANES", "1")
    _killing(monkeypatch, 1)
    journal = bigger / "out.jsonl"
    records = batch.run_batch(problem, bigger / "class", journal, jobs=2)
    assert len(records) == 8
    lost = [r for r in records if r["verdict"] == "IE"]
    assert lost and all("grading it was killed by signal 9" in r["message"] and
                        "--resume" in r["message"] for r in lost)
    assert all(r["sha256"] and r["file"] for r in lost)
    monkeypatch.undo()
    records = batch.run_batch(problem, bigger / "class", journal, jobs=2, resume=True)
    assert [r["verdict"] for r in records] == ["AC", "WA", "CE", "CE", "AC", "WA", "AC", "RTE"]


def test_every_grading_process_dead_records_the_rest_as_not_graded(bigger, monkeypatch):
    problem = spec.load("axpy", root=bigger)
    monkeypatch.setenv("JUDGE_BATCH_LANES", "1")
    real = pool._Process.send

    def send(self, message):  # each process dies on its first entry
        ok = real(self, message)
        if message and "entry" in message:
            os.kill(self.proc.pid, signal.SIGKILL)
        return ok

    monkeypatch.setattr(pool._Process, "send", send)
    records = batch.run_batch(problem, bigger / "class", bigger / "out.jsonl", jobs=2)
    assert [r["verdict"] for r in records] == ["IE", "IE", "CE", "IE", "IE", "IE", "IE", "IE"]
    messages = [r["message"] for r in records if r["verdict"] == "IE"]
    assert sum("grading it was killed by signal 9" in m for m in messages) == 2
    assert sum("no grading process is left to grade it" in m for m in messages) == 5


def test_stopping_the_batch_stops_its_grading_processes(bigger, monkeypatch):
    problem = spec.load("axpy", root=bigger)
    monkeypatch.setenv("JUDGE_BATCH_LANES", "1")
    started = []
    real_init = pool.Pool.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        started.append(self)

    def interrupt(progress, tally, record):
        raise KeyboardInterrupt

    monkeypatch.setattr(pool.Pool, "__init__", init)
    monkeypatch.setattr(batch, "_finished", interrupt)
    journal = bigger / "out.jsonl"
    with pytest.raises(KeyboardInterrupt):
        batch.run_batch(problem, bigger / "class", journal, jobs=2,
                        progress=Progress(0, stream=io.StringIO()))
    assert all(p.proc.returncode is not None for p in started[0].processes)
    recorded = [json.loads(line) for line in journal.read_text().splitlines()]
    assert len(recorded) == 2  # the header, and the one record that finished
    monkeypatch.undo()
    records = batch.run_batch(problem, bigger / "class", journal, jobs=2, resume=True)
    assert len(records) == 8


def test_a_grading_process_refuses_a_problem_that_changed(bigger):
    problem = spec.load("axpy", root=bigger)
    out = []
    lanes.serve({"spec": str(problem.path), "folder": str(bigger / "class"), "sandbox": "none",
                 "python": "python3", "gate": True, "basis": "another", "lanes": 1}, [],
                out.append)
    assert out == [{"error": "the problem's files changed since the batch started"}]


def test_a_batch_whose_grading_processes_cannot_start_says_why(bigger, monkeypatch):
    problem = spec.load("axpy", root=bigger)
    monkeypatch.setenv("JUDGE_BATCH_LANES", "1")
    real = pool.Pool.grade

    def grade(self, problem, folder, gate_on, basis, todo, lost):
        return real(self, problem, folder, gate_on, "another", todo, lost)

    monkeypatch.setattr(pool.Pool, "grade", grade)
    with pytest.raises(JudgeError, match="could not start: the problem's files changed"):
        batch.run_batch(problem, bigger / "class", bigger / "out.jsonl", jobs=2)


def test_names_a_student_chose_reach_the_grading_processes_intact(package, monkeypatch):  # noqa: F811
    cls = package / "class"
    plain = SOLUTIONS["submissions/axpy/accepted/plain.py"]
    (cls / "tab\tname.py").write_text(plain)
    (cls / "tab\\tname.py").write_text(SOLUTIONS["submissions/axpy/wrong_answer/sum_first.py"])
    (cls.joinpath(os.fsdecode(b"odd\xff.py"))).write_text(plain)
    (cls / "link.py").symlink_to(cls / "ann.py")
    problem = spec.load("axpy", root=package)
    alone = batch.run_batch(problem, cls, package / "alone.jsonl", jobs=2)
    monkeypatch.setenv("JUDGE_BATCH_LANES", "1")
    spread = batch.run_batch(problem, cls, package / "spread.jsonl", jobs=2)
    assert _kept(spread) == _kept(alone)
    verdicts = {r["submission"]: r["verdict"] for r in spread}
    assert (verdicts["tab\\tname"], verdicts["tab\\\\tname"], verdicts["odd\\udcff"],
            verdicts["link"]) == ("AC", "WA", "AC", "CE")
