"""``judge warm`` (``judge serve`` before): a warm worker server that other judge processes use through a socket."""

import contextlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from judge.run import cache, sandbox, warm
from judge.grade import grading
from tests.helpers import ROOT
from tests.hostile import ADVERSARIAL, descendants
from judge.grade.verdicts import Verdict

ACCEPTED = ROOT / "submissions" / "fake_quant_ste" / "accepted" / "closure_vjp.py"


@pytest.fixture()
def served(monkeypatch):
    """A ``judge warm --sandbox none`` process with its own cache folder; yields its socket.
    The folder is a short one under /tmp: a socket's path has at most 107 bytes."""
    folder = Path(tempfile.mkdtemp(prefix="jw", dir="/tmp"))
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(folder / "cache"))
    monkeypatch.delenv("JUDGE_WARM", raising=False)
    env = {**os.environ, "JUDGE_CACHE_DIR": str(folder / "cache")}
    proc = subprocess.Popen([sys.executable, "-m", "judge", "warm", "--sandbox", "none",
                             "--idle-timeout", "120"], cwd=ROOT, env=env,
                            stderr=subprocess.PIPE, text=True)
    path = warm.socket_path("none", sys.executable, cache.directory())
    deadline = time.monotonic() + 120
    while not path.exists():
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline, "judge warm did not start"
        time.sleep(0.2)
    yield proc, path
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)
    warm.close_all()
    shutil.rmtree(folder, ignore_errors=True)


def test_grades_go_through_the_served_workers(served, fq_problem):
    proc, path = served
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    result = grading.grade(fq_problem, ACCEPTED, examples_only=True, sandbox="none")
    assert result.verdict is Verdict.AC, result.message
    assert any(isinstance(s, warm.ServeClient) for s in warm._servers.values())
    # a run that has to be killed is killed through the relay, and the server goes on serving
    slow = grading.grade(fq_problem, ADVERSARIAL / "infinite_loop.py", examples_only=True,
                         sandbox="none", time_per_case_s=3)
    assert slow.verdict is Verdict.TLE, slow.message
    assert grading.grade(fq_problem, ACCEPTED, examples_only=True,
                         sandbox="none").verdict is Verdict.AC
    assert proc.poll() is None


def test_a_second_server_for_the_same_setup_is_refused(served):
    """Also through ``judge serve``, the command's former name, still accepted."""
    proc, path = served
    again = subprocess.run([sys.executable, "-m", "judge", "serve", "--sandbox", "none"],
                           cwd=ROOT, capture_output=True, text=True, timeout=120,
                           env={**os.environ})
    assert again.returncode == 2
    assert "already serves" in again.stderr


def test_stopping_removes_the_socket_and_grading_falls_back(served, fq_problem):
    proc, path = served
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)
    assert not path.exists()
    warm.close_all()
    result = grading.grade(fq_problem, ACCEPTED, examples_only=True, sandbox="none")
    assert result.verdict is Verdict.AC
    assert not any(isinstance(s, warm.ServeClient) for s in warm._servers.values())


def test_the_socket_name_depends_on_the_setup(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    path = warm.socket_path("bwrap", sys.executable, cache.directory())
    assert path != warm.socket_path("none", sys.executable, cache.directory())
    assert path != warm.socket_path("bwrap", sys.executable + "3", cache.directory())
    assert path.parent == cache.root() / "serve"
    if sandbox.probe() is None:
        assert warm.connect("bwrap", sys.executable, cache.directory()) is None


def wait_for(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


@pytest.mark.slow
def test_a_client_that_goes_away_takes_its_workers_with_it(served, tmp_path):
    """A `judge grade` killed mid-run must not leave its worker spinning in the server."""
    proc, path = served
    idle = len(descendants(proc.pid))
    client = subprocess.Popen([sys.executable, "-m", "judge", "grade",
                               str(ADVERSARIAL / "infinite_loop.py"), "-p", "fake_quant_ste",
                               "--sandbox", "none"], cwd=ROOT, env={**os.environ},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_for(lambda: len(descendants(proc.pid)) > idle, 60), "no worker was forked"
    finally:
        client.kill()
        client.wait(timeout=30)
    assert wait_for(lambda: len(descendants(proc.pid)) <= idle, 20), \
        f"left running: {descendants(proc.pid)} (idle: {idle})"
    assert proc.poll() is None


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_background_server_stops_cleanly_on_interrupt_and_kill(stop, monkeypatch):
    """A shell starts `judge warm &` with SIGINT ignored; Ctrl-C's signal and kill's default
    still stop it, and its socket goes with it."""
    folder = Path(tempfile.mkdtemp(prefix="jw", dir="/tmp"))
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(folder / "cache"))
    monkeypatch.delenv("JUDGE_WARM", raising=False)
    env = dict(os.environ)
    proc = subprocess.Popen(["sh", "-c", f"{sys.executable} -m judge warm --sandbox none "
                             "--idle-timeout 121 & wait"], cwd=ROOT, env=env,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        path = warm.socket_path("none", sys.executable, cache.directory())
        assert wait_for(lambda: path.exists(), 120), "judge warm did not start"
        server = int(subprocess.run(["pgrep", "-f", "-n", "judge warm --sandbox none --idle-timeout 121"],
                                    capture_output=True, text=True).stdout.split()[0])
        os.kill(server, stop)
        proc.wait(timeout=30)
        assert not path.exists()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
