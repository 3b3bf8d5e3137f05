"""``judge service`` started as docs/operators/service.md says, over HTTP: verdicts and masking as ``judge
grade`` gives them, the token file of a first start, 40 concurrent submissions graded exactly
once across a SIGKILL of the whole service and a restart, and graders taking work from Redis."""

import contextlib
import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the service extra is not installed "
                                      "(pip install -e '.[service]')")
httpx = pytest.importorskip("httpx", reason="httpx is not installed (the test extra)")

from tests import helpers  # noqa: E402
from tests.helpers import ROOT, judge, redis_server  # noqa: E402

pytestmark = pytest.mark.slow

TOKEN = "e2e-token-0123456789abcdef"
FQ = ROOT / "submissions" / "fake_quant_ste"
#: a submission folder's name -> the verdict its files get
FOLDER_VERDICT = {"accepted": "AC", "wrong_answer": "WA", "rejected": "RJ",
                  "run_time_error": "RE"}
HIDDEN_KEYS = {"index", "number", "visibility", "verdict", "reason", "message", "time_s"}


def free_port() -> int:
    return helpers.free_port()  # skips the test where no TCP socket can be opened


class Service:
    """A ``judge service`` process group (the API and its grader)."""

    def __init__(self, data: Path, *args: str, token: str | None = TOKEN, port=None,
                 extra_env: dict | None = None):
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if k != "JUDGE_SERVICE_TOKEN"} | (extra_env or {})
        if token:
            env["JUDGE_SERVICE_TOKEN"] = token
        self.log = open(data.parent / f"service-{self.port}-{time.monotonic_ns()}.log", "w+")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "judge", "service", "--port", str(self.port), "--data",
             str(data), *args], cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True)
        self.token = token

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()

    def wait_up(self, timeout=180) -> None:
        deadline = time.monotonic() + timeout
        while True:
            assert self.proc.poll() is None, f"judge service stopped:\n{self.output()}"
            try:
                httpx.get(self.url + "/", timeout=5)
                return
            except httpx.TransportError:
                assert time.monotonic() < deadline, f"judge service did not start:\n{self.output()}"
                time.sleep(0.3)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)  # a grader left behind
        self.log.close()

    # the API
    def headers(self):
        return {"Authorization": f"Bearer {self.token}"}

    def submit(self, path: Path, problem="fake_quant_ste") -> str:
        r = httpx.post(self.url + "/api/v1/submissions", headers=self.headers(), timeout=60,
                       json={"problem": problem, "source": path.read_text()})
        assert r.status_code == 202, r.text
        return r.json()["id"]

    def status(self, sub_id: str) -> dict:
        r = httpx.get(f"{self.url}/api/v1/submissions/{sub_id}", headers=self.headers(),
                      timeout=60)
        assert r.status_code == 200, r.text
        return r.json()

    def wait_done(self, ids, timeout=900) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            states = {i: self.status(i) for i in ids}
            if all(s["status"] == "done" for s in states.values()):
                return states
            assert time.monotonic() < deadline, (
                f"not done after {timeout} s: "
                f"{[s['status'] for s in states.values()]}\n{self.output()[-3000:]}")
            time.sleep(1.0)


@contextlib.contextmanager
def running(data: Path, *args: str, **kw):
    service = Service(data, *args, **kw)
    try:
        service.wait_up()
        yield service
    finally:
        service.stop()


def expected_verdict(path: Path) -> str:
    return FOLDER_VERDICT[path.parent.name]


def test_first_start_verdicts_and_masking_as_judge_grade(tmp_path):
    files = [FQ / "accepted" / "closure_vjp.py", FQ / "wrong_answer" / "missing_clip.py",
             FQ / "rejected" / "pure_callback.py",
             ROOT / "tests" / "adversarial" / "forge_result_channel.py"]
    data = tmp_path / "data"
    with running(data, "--workers", "2", token=None) as service:
        # the first start without $JUDGE_SERVICE_TOKEN: a token file only its owner reads,
        # and the token printed
        path = data / "tokens"
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        service.token = path.read_text().split()[-1]
        assert service.token in service.output()
        assert httpx.get(service.url + "/api/v1/problems").status_code == 401
        ids = [service.submit(f) for f in files]
        results = service.wait_done(ids)
    for f, sub_id in zip(files, ids):
        report = results[sub_id]["result"]
        local = json.loads(judge("grade", str(f), "-p", "fake_quant_ste", "--format", "json").stdout)
        assert (report["verdict"], report["reason"]) == (local["verdict"], local["reason"]), f.name
        if f.parent.name in FOLDER_VERDICT:
            assert report["verdict"] == expected_verdict(f), f.name
        else:
            assert report["verdict"] == "RJ", f.name  # a forged result channel: its own verdict
        assert report["source_gate"] is True
        assert [sorted(c) for c in report["cases"]] == [sorted(c) for c in local["cases"]]
        for case in report["cases"]:
            if case["visibility"] == "hidden":
                assert set(case) == HIDDEN_KEYS, case
    wrong = results[ids[1]]["result"]
    assert any(c["visibility"] == "hidden" and c["verdict"] == "WA" for c in wrong["cases"])
    assert any("expected" in c for c in wrong["cases"] if c["visibility"] == "example")


def _tree(pid: int) -> list[tuple[int, int, str]]:
    """(depth, pid, command line) of ``pid`` and every process under it."""
    children, commands = {}, {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                commands[int(entry.name)] = (entry / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            children.setdefault(parent, []).append(int(entry.name))
    out, stack = [], [(0, pid)]
    while stack:
        depth, here = stack.pop()
        out.append((depth, here, commands.get(here, "")))
        stack.extend((depth + 1, child) for child in children.get(here, ()))
    return out


def test_a_worker_killed_from_outside_mid_grade_is_graded_again_not_charged(tmp_path):
    """kill -9 of the innermost worker (a warm worker forked for this grade), as the host's
    out-of-memory killer would: the submission is graded again and gets its own verdict, AC,
    with the attempt that failed in its report; never RTE."""
    # Each worker forked for its run: the kill must find the grade's worker from outside, and a
    # worker forked ahead, waiting, is the deepest process as well (its death is replaced
    # unseen: tests/test_forkserver_ahead.py).
    with running(tmp_path / "data", "--workers", "1", extra_env={"JUDGE_WARM_AHEAD": "off"}) as service:
        deadline = time.monotonic() + 180
        while True:  # the grader's warm server, idle: the depth its workers are forked under
            servers = [d for d, _, cmd in _tree(service.proc.pid) if "judge.worker" in cmd]
            if servers:
                break
            assert time.monotonic() < deadline, service.output()
            time.sleep(0.2)
        idle = max(servers)
        # the kill must land once the worker runs its cases (a fork killed before it is ready
        # is replaced at once, unseen) and before it is done (a grade of this problem takes
        # well under a second): a few submissions, each killed a little later, until one lands
        results = []
        for delay in (0.05, 0.15, 0.3, 0.5, 0.8):
            sub_id = service.submit(FQ / "accepted" / "closure_vjp.py")
            while True:  # the server's keeper and, under it, the worker
                tree = _tree(service.proc.pid)
                if max(tree)[0] >= idle + 2:
                    break
                assert time.monotonic() < deadline, service.output()
                time.sleep(0.01)
            time.sleep(delay)
            depth, worker, _ = max(_tree(service.proc.pid))
            if depth >= idle + 2:
                try:
                    os.kill(worker, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            result = service.wait_done([sub_id])[sub_id]["result"]
            results.append(result)
            assert (result["verdict"], result["reason"]) == ("AC", "ok"), result  # never RTE
            if result.get("regraded"):
                break
        assert "ended with an internal error (worker_killed" in service.output(), results
    assert result["regraded"] == ["worker_killed"], results


def _mix(n: int) -> list[Path]:
    pool = (sorted((FQ / "accepted").glob("*.py")) + sorted((FQ / "wrong_answer").glob("*.py"))
            + sorted((FQ / "rejected").glob("*.py")))
    return [pool[(i * 7) % len(pool)] for i in range(n)]


def test_forty_submissions_are_graded_once_across_a_sigkill_and_a_restart(tmp_path):
    files = _mix(40)
    assert {expected_verdict(f) for f in files} == {"AC", "WA", "RJ"}
    data = tmp_path / "data"
    port = free_port()
    service = Service(data, "--workers", "2", port=port)
    try:
        service.wait_up()
        with ThreadPoolExecutor(max_workers=20) as pool:
            ids = list(pool.map(service.submit, files))
        assert len(set(ids)) == 40
        deadline = time.monotonic() + 900
        while True:  # kill it mid-grade: some results recorded, some being graded
            states = [service.status(i)["status"] for i in ids]
            if states.count("done") >= 2 and "running" in states:
                break
            assert time.monotonic() < deadline, service.output()[-3000:]
            time.sleep(0.5)
        service.kill()
    finally:
        service.stop()
    with pytest.raises(httpx.TransportError):
        httpx.get(service.url + "/", timeout=5)
    db = sqlite3.connect(data / "service.db")
    running_at_kill = {r[0] for r in db.execute("select id from submissions where status = 'running'")}
    assert running_at_kill

    with running(data, "--workers", "2", port=port) as again:
        results = again.wait_done(ids, timeout=1500)
    for f, sub_id in zip(files, ids):
        assert results[sub_id]["result"]["verdict"] == expected_verdict(f), f.name
    rows = db.execute("select id, status, attempt from submissions").fetchall()
    assert len(rows) == 40 and all(status == "done" for _, status, _ in rows)
    recorded = dict(db.execute("select submission, sum(recorded) from outcomes group by submission"))
    assert recorded == {i: 1 for i in ids}  # every one recorded exactly once
    # the ones being graded at the kill were graded again, under a new attempt
    attempts = {i: a for i, _, a in rows}
    assert all(attempts[i] >= 2 or recorded[i] == 1 for i in running_at_kill)
    assert any(attempts[i] >= 2 for i in running_at_kill)


@pytest.fixture()
def redis_url(tmp_path):
    with redis_server(tmp_path) as (url, _):
        yield url


def _grader(redis_url: str, data: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "judge", "service", "--grader-only",
                             "--queue", redis_url, "--workers", "1", "--data", str(data)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def test_graders_on_other_machines_take_work_from_redis(tmp_path, redis_url):
    """The API with no grader of its own, and grader-only processes, each with a data folder of
    its own (as on other machines): they reach the API only through Redis. The first grader's
    machine is lost mid-grade (SIGKILL); the second one grades what it was grading."""
    files = [FQ / "accepted" / "closure_vjp.py", FQ / "wrong_answer" / "strict_mask.py",
             FQ / "rejected" / "numpy_conversion.py", FQ / "accepted" / "nondiff_argnums.py"]
    graders = [_grader(redis_url, tmp_path / "grader0")]
    try:
        with running(tmp_path / "api", "--queue", redis_url, "--workers", "0") as service:
            ids = [service.submit(f) for f in files]
            deadline = time.monotonic() + 600
            while not any(service.status(i)["status"] == "running" for i in ids):
                assert time.monotonic() < deadline and graders[0].poll() is None
                time.sleep(0.3)
            os.killpg(graders[0].pid, signal.SIGKILL)
            graders.append(_grader(redis_url, tmp_path / "grader1"))
            results = service.wait_done(ids)
            assert graders[1].poll() is None
    finally:
        for g in graders:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(g.pid, signal.SIGKILL)
            g.wait(timeout=30)
    for f, sub_id in zip(files, ids):
        assert results[sub_id]["result"]["verdict"] == expected_verdict(f), f.name
    assert not (tmp_path / "api" / "queue.db").exists()  # the queue was Redis's
    db = sqlite3.connect(tmp_path / "api" / "service.db")
    recorded = dict(db.execute("select submission, sum(recorded) from outcomes group by submission"))
    assert recorded == {i: 1 for i in ids}
    assert max(a for a, in db.execute("select attempt from submissions")) >= 2
