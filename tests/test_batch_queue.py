"""``judge batch --queue redis://...``: a class graded by the service's graders
(``judge.service.class_queue``), with a local redis-server started here."""

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("huey", reason="the service extra is not installed")
pytest.importorskip("redis", reason="the service extra is not installed")

from judge.errors import JudgeError  # noqa: E402
from judge.grade import batch, journal as journal_mod  # noqa: E402
from judge.problem import spec  # noqa: E402
from judge.run.settings import Settings  # noqa: E402
from judge.service import class_queue, class_task, queue as q  # noqa: E402
from judge.service.grader import Grader  # noqa: E402
from tests.helpers import ROOT, free_port, judge, pythonpath, redis_server  # noqa: E402

FQ = ROOT / "submissions" / "fake_quant_ste"
SECRET = b"k" * 32
#: The class: one file of each of four verdicts.
CLASS = {"alice.py": ("accepted/closure_vjp.py", "AC"),
         "bob.py": ("wrong_answer/flattened_output.py", "WA"),
         "carol.py": ("rejected/numpy_conversion.py", "RJ"),
         "dave.py": ("compile_error/syntax_error.py", "CE")}


@pytest.fixture()
def redis_url(tmp_path):
    with redis_server(tmp_path) as (url, _):
        yield url


@pytest.fixture()
def klass(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    for name, (source, _) in CLASS.items():
        shutil.copy(FQ / source, folder / name)
    return folder


@pytest.fixture()
def problem():
    return spec.load("fake_quant_ste")


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": pythonpath()}


def _grader(redis_url: str, data: Path) -> subprocess.Popen:
    data.mkdir(parents=True)
    with open(data / "stderr", "wb") as log:
        return subprocess.Popen([sys.executable, "-m", "judge", "service", "--grader-only",
                                 "--queue", redis_url, "--workers", "1", "--data", str(data)],
                                cwd=ROOT, env=_env(), stdout=subprocess.DEVNULL, stderr=log,
                                start_new_session=True)


def _consuming(grader: subprocess.Popen, data: Path) -> None:
    """Wait until ``grader`` takes tasks (it says so on stderr)."""
    deadline = time.monotonic() + 300
    while "worker(s) on redis://" not in (data / "stderr").read_text(errors="replace"):
        assert time.monotonic() < deadline and grader.poll() is None, \
            (data / "stderr").read_text(errors="replace")
        time.sleep(0.1)


def _batch(folder: Path, out: Path, *args: str, wait: bool = True):
    command = [sys.executable, "-m", "judge", "batch", str(folder), "-p", "fake_quant_ste",
               "--format", "json", "--out", str(out), "--journal", str(out) + ".journal",
               "--feedback", str(out) + ".feedback", *args]
    if wait:
        return subprocess.run(command, cwd=ROOT, env=_env(), capture_output=True, text=True,
                              timeout=900)
    return subprocess.Popen(command, cwd=ROOT, env=_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def _store(url: str):
    return q.open_queue(url, Path(".")).tasks


def _claims(url: str) -> dict[str, str]:
    tasks = _store(url)
    out = {}
    for key in tasks.storage.conn.hkeys(tasks.storage.result_key):
        key = key.decode()
        if key.startswith("claim:class-"):
            out[key] = tasks.get(key, peek=True)
    return out


def _results(out: Path) -> dict:
    """The JSON report's results by submission, without the times (which differ run to run)."""
    report = json.loads(out.read_text())
    return {r["submission"]: {k: v for k, v in r.items() if k != "time_s"}
            for r in report["results"]}


def _feedback(folder: Path) -> dict:
    """The feedback files, their times taken out."""
    return {p.name: re.sub(r"\d+\.\d+s", "T", p.read_text()) for p in sorted(folder.iterdir())}


def _journal(path: Path) -> dict:
    """The journal's records by entry, without their signatures and times (in the student's
    feedback and results.json too)."""
    records = {}
    for line in path.read_text().splitlines()[1:]:
        record = {k: v for k, v in json.loads(line).items() if k not in ("mac", "time_s")}
        records[record["key"]] = re.sub(r"\d+\.\d+", "T", json.dumps(record, sort_keys=True))
    return records


def _stop(procs) -> None:
    for proc in procs:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)


# -- the class over two graders ----------------------------------------------------------------

def test_a_class_over_two_graders_is_graded_as_a_local_batch_and_a_killed_grader_loses_nothing(
        tmp_path, klass, redis_url, problem):
    """Two graders take the class from Redis; the first is killed (its machine lost) while it
    grades. Every submission is graded, the journal and the reports are those of a local batch
    of the same class, and a second run with --resume grades nothing again."""
    graders = [_grader(redis_url, tmp_path / "g0"), _grader(redis_url, tmp_path / "g1")]
    try:
        _consuming(graders[0], tmp_path / "g0")  # so it takes one of the first two tasks
        run = _batch(klass, tmp_path / "queued.json", "--queue", redis_url, wait=False)
        victim = f"{socket.gethostname()}:{graders[0].pid}"
        deadline = time.monotonic() + 600
        while victim not in _claims(redis_url).values():
            assert time.monotonic() < deadline and run.poll() is None, run.communicate()
            time.sleep(0.2)
        os.killpg(graders[0].pid, signal.SIGKILL)  # mid-grade: the claim comes before the grade
        out, err = run.communicate(timeout=900)
        assert run.returncode == 0, err
        assert graders[1].poll() is None
    finally:
        _stop(graders)
    assert f"grader {victim} stopped answering" in err
    got = _results(tmp_path / "queued.json")
    assert {name: r["verdict"] for name, r in got.items()} == \
        {name[:-3]: verdict for name, (_, verdict) in CLASS.items()}
    lines = (tmp_path / "queued.json.journal").read_text().splitlines()
    assert len(lines) == 1 + len(CLASS)  # the header, and each submission recorded once

    local = batch.run_batch(problem, klass, tmp_path / "local.journal", jobs=2, secret=SECRET)
    from judge.reports import batch_report, handout

    (tmp_path / "local.json").write_text(batch_report.render_json(problem.id, local))
    handout.write_feedback(tmp_path / "local.feedback", problem.id, local)
    assert got == _results(tmp_path / "local.json")
    # the same journal: the same records, basis, feedback and Gradescope results.json
    assert _journal(tmp_path / "queued.json.journal") == _journal(tmp_path / "local.journal")
    assert _feedback(tmp_path / "queued.json.feedback") == _feedback(tmp_path / "local.feedback")
    # the file's own name reaches the student's report, as in a local batch
    assert "carol.py" in (tmp_path / "queued.json.feedback" / "carol.txt").read_text()

    again = _batch(klass, tmp_path / "queued.json", "--queue", redis_url, "--resume",
                   "--queue-timeout", "5")
    assert again.returncode == 0, again.stderr  # no grader runs now: nothing was sent
    assert _results(tmp_path / "queued.json") == got
    assert not _claims(redis_url)  # the batch leaves no keys behind


def test_a_batch_killed_mid_class_resumes_with_what_the_graders_finished(
        tmp_path, klass, redis_url):
    """The batch process itself is killed; --resume grades only what its journal lacks,
    collecting the answers the graders stored meanwhile, and records each submission once."""
    grader = _grader(redis_url, tmp_path / "g0")
    try:
        run = _batch(klass, tmp_path / "r.json", "--queue", redis_url, wait=False)
        journal = Path(str(tmp_path / "r.json") + ".journal")
        deadline = time.monotonic() + 600
        while not journal.exists() or len(journal.read_text().splitlines()) < 2:
            assert time.monotonic() < deadline and run.poll() is None, run.communicate()
            time.sleep(0.1)
        os.killpg(run.pid, signal.SIGKILL)
        run.communicate()
        recorded = len(journal.read_text().splitlines()) - 1
        assert 1 <= recorded < len(CLASS)
        again = _batch(klass, tmp_path / "r.json", "--queue", redis_url, "--resume")
        assert again.returncode == 0, again.stderr
    finally:
        _stop([grader])
    assert f"[{len(CLASS) - recorded}/{len(CLASS) - recorded}]" in again.stderr
    assert {n: r["verdict"] for n, r in _results(tmp_path / "r.json").items()} == \
        {name[:-3]: verdict for name, (_, verdict) in CLASS.items()}
    keys = [json.loads(line).get("key") for line in journal.read_text().splitlines()[1:]]
    assert sorted(keys) == sorted(CLASS)


# -- errors ------------------------------------------------------------------------------------

@pytest.mark.parametrize("url, why", [
    ("amqp://host/", "the scheme is 'amqp', not redis"),
    ("redis://host:port/0", "Port could not be cast"),
    ("redis:///0", "no host"),
    ("redis://host:6379/zero", "the database 'zero' is not a number"),
    ("127.0.0.1:6379", "scheme"),
    ("redis://host:/0", "no port after the colon"),
])
def test_a_malformed_queue_url_is_a_clear_error(url, why):
    with pytest.raises(JudgeError, match="not a Redis URL") as info:
        class_queue.check_url(url)
    assert why in str(info.value) and "redis://HOST:PORT/DB" in str(info.value)


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379/0", "redis://[::1]:6379/2",
                                 "redis://[::1]/0", "rediss://:pw@queue-host:6380",
                                 "unix:///run/redis.sock?db=1"])
def test_the_redis_urls_of_the_service_are_taken(url):
    assert class_queue.check_url(url) == url


def test_redis_that_cannot_be_reached_is_one_clear_error_without_the_password(klass, tmp_path):
    port = free_port()  # nothing listens there
    done = judge("batch", str(klass), "-p", "fake_quant_ste", "--out", str(tmp_path / "r.txt"),
                 "--queue", f"redis://:hunter2@127.0.0.1:{port}/0", env=_env())
    assert done.returncode != 0
    assert f"--queue redis://127.0.0.1:{port}/0: cannot reach Redis" in done.stderr
    assert "hunter2" not in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "r.txt").exists()


def test_no_grader_answering_names_the_queue_and_what_to_start(tmp_path, klass, redis_url):
    done = _batch(klass, tmp_path / "r.json", "--queue", redis_url, "--queue-timeout", "2")
    assert done.returncode != 0
    assert "no grader took a submission for 2 s on the queue judge-grading" in done.stderr
    assert f"judge service --grader-only --queue {redis_url}" in done.stderr
    assert "4 submission(s) still outstanding: alice, bob, carol, dave" in done.stderr
    assert "--resume" in done.stderr and "Traceback" not in done.stderr
    lines = Path(str(tmp_path / "r.json") + ".journal").read_text().splitlines()
    assert len(lines) == 1  # the header: nothing was graded


def test_the_queue_refuses_the_gate_off_and_sandbox_auto(tmp_path, klass):
    class Unused:
        def grade(self, *args):
            raise AssertionError("nothing may be sent")

    with pytest.raises(JudgeError, match="always grade with the source gate on"):
        batch.run_batch(spec.load("fake_quant_ste"), klass, tmp_path / "j", source_gate=False,
                        sandbox=Settings("bwrap"), remote=Unused(), secret=SECRET)
    with pytest.raises(JudgeError, match="does not take --sandbox auto"):
        class_queue.sandbox_asked("auto")
    assert class_queue.sandbox_asked("none").sandbox == "none"


# -- the grader's side, in this process --------------------------------------------------------

def _in_process_grader(redis_url: str, tmp_path: Path, problem=None) -> Grader:
    grader = Grader(redis_url, tmp_path / "data", sandbox=Settings("none"))
    if problem is not None:
        grader.problem = lambda problem_id: problem
    return grader


def _run_batch_in_thread(problem, klass, tmp_path, url, timeout=30.0, lease=class_queue.LEASE_S):
    said: list[str] = []
    remote = class_queue.Remote(url, timeout=timeout, lease=lease, say=said.append)
    outcome: dict = {}

    def run():
        try:
            outcome["records"] = batch.run_batch(problem, klass, tmp_path / "j.jsonl",
                                                 sandbox=Settings("none"), remote=remote,
                                                 secret=SECRET)
        except JudgeError as exc:
            outcome["error"] = str(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome, said


def _next_task(url: str, timeout: float = 60):
    tasks = _store(url)
    deadline = time.monotonic() + timeout
    while not tasks.pending():
        assert time.monotonic() < deadline, "no task was enqueued"
        time.sleep(0.05)
    return tasks.pending()[0]


def test_a_grader_with_another_problem_package_is_refused_by_name(tmp_path, klass, redis_url,
                                                                  problem):
    """A grader whose spec of the problem differs (one hidden case edited) grades nothing for
    the batch, and the batch stops saying which grader and what differs."""
    text = (ROOT / "problems" / "fake_quant_ste.yaml").read_text()
    (tmp_path / "pkg" / "problems").mkdir(parents=True)
    shutil.copytree(ROOT / "reference", tmp_path / "pkg" / "reference")
    edited = tmp_path / "pkg" / "problems" / "fake_quant_ste.yaml"
    edited.write_text(text.replace("expected: {values: [0.0], grads: [1.0]}",
                                   "expected: {values: [0.5], grads: [1.0]}", 1))
    assert edited.read_text() != text
    grader = _in_process_grader(redis_url, tmp_path, spec.load(edited))
    thread, outcome, _ = _run_batch_in_thread(problem, klass, tmp_path, redis_url)
    grader.queue.tasks.execute(grader.queue.tasks.dequeue())
    thread.join(timeout=60)
    error = outcome["error"]
    assert f"grader {grader.name} on {redis_url} does not grade fake_quant_ste" in error
    assert "its problem spec differs" in error and "its results are refused" in error
    assert "(its problem spec differs)" in error  # only what differs is named
    assert len((tmp_path / "j.jsonl").read_text().splitlines()) == 1  # nothing recorded


def test_a_result_that_is_no_graders_is_never_decoded_nor_recorded(tmp_path, klass, redis_url,
                                                                   problem):
    """Whoever reaches Redis writes a pickle, then a report with a made-up verdict, as a
    submission's result: neither is decoded as anything but JSON, nor recorded; the submission
    goes back to the queue each time, and the batch then says it is outstanding."""
    import pickle

    class Boom:
        def __reduce__(self):
            return (Path.touch, (tmp_path / "pwned",))

    thread, outcome, said = _run_batch_in_thread(problem, klass, tmp_path, redis_url, timeout=4)
    tasks = _store(redis_url)
    task = _next_task(redis_url)
    sub_id, attempt = task.args[0], task.args[1]
    tasks.put_if_empty(q.claim_key(sub_id, attempt), "mallory")
    tasks.storage.put_data(q.result_key(sub_id, attempt), pickle.dumps(Boom()))
    deadline = time.monotonic() + 30
    while (sub_id, attempt + 1) not in {(t.args[0], t.args[1]) for t in tasks.pending()}:
        assert time.monotonic() < deadline and thread.is_alive()
        time.sleep(0.05)
    forged = {"verdict": "AC", "report": json.dumps({"verdict": "AC", "problem": problem.id}),
              "feedback": "", "gradescope": {}, "basis": journal_mod.basis_parts(
                  problem, {"source_gate": True, "sandbox": "none"})}
    tasks.put_if_empty(q.claim_key(sub_id, attempt + 1), "mallory")
    tasks.put(q.result_key(sub_id, attempt + 1), forged)
    thread.join(timeout=60)
    assert not (tmp_path / "pwned").exists()
    assert any("is not a grader's" in text for text in said)
    assert "still outstanding" in outcome["error"]
    assert len((tmp_path / "j.jsonl").read_text().splitlines()) == 1  # nothing recorded


@pytest.mark.parametrize("change", [
    {"name": "../x.py"}, {"name": ".."}, {"name": ""}, {"name": 7}, {"label": "a\0b"},
    {"batch": "../../etc"}, {"expect": {"spec": ["x"]}}, {"extra": 1},
])
def test_a_grader_takes_only_a_well_formed_class_task(change):
    task = {"batch": "0" * 24, "name": "alice.py", "label": "alice.py", "expect": {"spec": "s"}}
    assert class_task.job(json.dumps(task)) == task
    assert class_task.job(json.dumps({**task, **change})) is None
    assert class_task.job("not json") is None and class_task.job(None) is None


def test_a_grader_skips_the_tasks_of_a_batch_that_has_ended(tmp_path, redis_url):
    grader = _in_process_grader(redis_url, tmp_path)
    inputs = json.dumps({"batch": "a" * 24, "name": "alice.py", "label": "alice.py",
                         "expect": {}})
    grader.queue.enqueue("class-x", 1, "fake_quant_ste", "print(1)", class_task.MODE,
                         inputs=inputs)
    grader.queue.tasks.execute(grader.queue.tasks.dequeue())
    assert grader.queue.peek(q.claim_key("class-x", 1)) is None  # never claimed nor graded


def test_the_services_own_submissions_are_served_before_a_class(tmp_path, klass, redis_url,
                                                                problem):
    """An API on the same Redis: a student's submission, even of a late round, is taken before
    the class's waiting submissions."""
    thread, outcome, _ = _run_batch_in_thread(problem, klass, tmp_path, redis_url, timeout=2)
    _next_task(redis_url)
    queue = q.open_queue(redis_url, Path("."))
    queue.enqueue("student-1", 1, "fake_quant_ste", "x = 1", turn=50)
    assert queue.tasks.dequeue().args[0] == "student-1"
    assert queue.tasks.dequeue().args[0].startswith("class-")
    thread.join(timeout=60)
    assert "still outstanding" in outcome["error"]


def test_redis_lost_mid_class_is_waited_for_then_a_clear_error(tmp_path, klass, problem):
    with redis_server(tmp_path) as (url, proc):
        thread, outcome, said = _run_batch_in_thread(problem, klass, tmp_path, url, timeout=3)
        _next_task(url)
        proc.kill()
        thread.join(timeout=60)
    assert any(f"lost Redis at {url}" in text for text in said)
    assert f"--queue {url}: Redis has not answered for 3 s" in outcome["error"]
    assert "4 submission(s) still outstanding: alice, bob, carol, dave" in outcome["error"]


def test_a_submission_whose_every_grader_is_lost_is_ie_grader_lost_and_graded_again_on_resume(
        tmp_path, klass, redis_url, problem):
    """Graders that claim a submission and die (no heartbeat) three times: the row is IE
    grader_lost (the judge's fault), and --resume sends it again."""
    thread, outcome, said = _run_batch_in_thread(problem, klass, tmp_path, redis_url, lease=0.5)
    tasks = _store(redis_url)
    claimed = 0
    while thread.is_alive():
        task = tasks.dequeue()
        if task is not None:
            assert tasks.put_if_empty(q.claim_key(task.args[0], task.args[1]), f"lost{claimed}")
            claimed += 1
        time.sleep(0.02)
    thread.join()
    assert claimed == 3 * len(CLASS)
    records = outcome["records"]
    assert {(r["verdict"], r["reason"]) for r in records} == {("IE", "grader_lost")}
    assert "each of 3 attempts stopped answering" in records[0]["message"]
    assert any("grader lost0 stopped answering" in text for text in said)
    how = {"source_gate": True, "sandbox": "none"}
    journal = journal_mod.Journal(tmp_path / "j.jsonl", problem.id, True, how,
                                  journal_mod.basis(problem, how), secret=SECRET)
    assert set(journal.records) == set(CLASS)
    assert all(not journal.reusable(r["key"], r["sha256"]) for r in records)  # graded again
    journal.close()


def test_a_batch_stopped_with_ctrl_c_takes_its_submissions_back(tmp_path, klass, redis_url):
    run = _batch(klass, tmp_path / "r.json", "--queue", redis_url, wait=False)
    _next_task(redis_url)
    time.sleep(0.5)
    os.killpg(run.pid, signal.SIGINT)
    _, err = run.communicate(timeout=240)  # stopping takes longer on a loaded machine
    assert run.returncode != 0 and "Traceback" not in err
    tasks = _store(redis_url)
    assert not [k for k in tasks.storage.conn.hkeys(tasks.storage.result_key)
                if k.decode().startswith("class:")]
    grader = _in_process_grader(redis_url, tmp_path)
    left = len(tasks.pending())
    assert left == len(CLASS)
    for _ in range(left):  # each left in the queue is skipped, never claimed nor graded
        task = grader.queue.tasks.dequeue()
        grader.queue.tasks.execute(task)
        assert grader.queue.peek(q.claim_key(task.args[0], task.args[1])) is None
