"""Warm workers without isolation (``--sandbox none``): the fork server cannot give its children
namespaces of their own, but every child still drops what needs no privilege (no capability,
not dumpable, ``no_new_privs``, the seccomp filter; ``judge.worker.child.lock_down``), the server
is not dumpable and the judge process makes itself not dumpable (``judge.run.unsandboxed``). So
a submission can trace, read or write none of them, nor a child forked ahead that waits for the
next run (``tests/adversarial/warm_unsandboxed_reach.py``), while honest code still gets AC.

Yama (``kernel.yama.ptrace_scope``) may refuse some of these attempts by itself; where the test
can, it sets the scope to 0 for its run (and back). Capabilities would too: a process without
them cannot open the memory of one that has more, so a judge running as root with its
capabilities is out of a worker's reach whatever it does. The attack is therefore graded by a
judge that holds no capability (none permitted, none to regain through ``exec``), as an ordinary
user's judge, where being not dumpable is what holds; and a dumpable decoy process of the same
uid without capabilities shows that the same attempts reach a process the judge's steps do not
cover.
"""

import ctypes
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.helpers import ROOT, pythonpath, record_warm_spawns
from tests.hostile import (ADVERSARIAL, NO_CAPABILITIES, decoy, descendants,  # noqa: F401
                           hostile, ptrace_scope)

from judge.grade import grading
from judge.grade.verdicts import Verdict
from judge.run import seccomp, unsandboxed, warm
from judge.errors import SandboxError

ACCEPTED = ROOT / "submissions" / "fake_quant_ste" / "accepted" / "closure_vjp.py"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")


@pytest.fixture(autouse=True)
def spawns(monkeypatch):
    """Warm workers on and forked ahead, no server running yet, and one of this process's own;
    the servers each run was forked by."""
    monkeypatch.setenv("JUDGE_WARM", "on")
    monkeypatch.setenv("JUDGE_WARM_AHEAD", "on")
    yield record_warm_spawns(monkeypatch)
    warm.close_all()


#: A judge without capabilities grading ``paths`` in turn, warm and unsandboxed; the verdicts.
JUDGE = NO_CAPABILITIES + """
import json
from judge.grade import grading
from judge.problem import spec
from judge.run import warm
warm.connect = lambda *args, **kwargs: None
problem = spec.load({root!r} + "/problems/fake_quant_ste.yaml")
texts = []
for path in {paths!r}:
    result = grading.grade(problem, path, examples_only=True, sandbox="none", source_gate=False)
    stdout = result.cases[0].details.get("stdout") if result.cases else ""
    texts.append([result.verdict.value, f"{{result.reason}} {{result.message}} | {{stdout}}"])
print(json.dumps(texts))
"""


def grade(problem, path):
    return grading.grade(problem, path, examples_only=True, sandbox="none", source_gate=False)


def verdict_of(result) -> str:
    text = f"{result.verdict.value} [{result.reason}] {result.message}"
    stdout = result.cases[0].details.get("stdout") if result.cases else None
    return text + (f" | stdout: {stdout.strip()}" if stdout and stdout.strip() else "")


def the_server(spawns) -> warm.WarmServer:
    assert spawns, "no run used a warm worker"
    assert len(set(map(id, spawns))) == 1, "the runs did not share one server"
    server = spawns[0]
    assert server.alive and server.mode == "none", server.error
    return server


def status(pid: int, tid: int | None = None) -> dict:
    path = f"/proc/{pid}/task/{tid}/status" if tid else f"/proc/{pid}/status"
    with open(path) as f:
        fields = dict(line.split(":", 1) for line in f if ":" in line)
    state = {k: fields.get(k, "").strip() for k in ("Seccomp", "NoNewPrivs", "CapEff")}
    if "NoNewPrivs" not in fields:  # a kernel that does not show it (gVisor): not seen from outside
        state["NoNewPrivs"] = "1"
    return state


#: The filter this test process itself runs under (2 where the machine confines its programs
#: with one): what a child shows that installs none of its own.
OWN_SECCOMP = status(os.getpid())["Seccomp"]


def waiting_child(server: warm.WarmServer, timeout: float = 30.0) -> int:
    """The server's child forked ahead, once it has started its backend's threads."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for pid in descendants(server._proc.pid):
            try:
                if len(list(Path(f"/proc/{pid}/task").iterdir())) > 1:
                    return pid
            except OSError:
                pass
        time.sleep(0.05)
    raise AssertionError("no child waits ahead")


def test_a_worker_reaches_neither_the_server_nor_a_child_waiting_ahead_nor_the_judge(
        tmp_path, ptrace_scope, decoy):
    attack = hostile("warm_unsandboxed_reach.py", tmp_path, DECOY=decoy, WORKERS="warm",
                     MARK=tmp_path / "attacked")
    script = JUDGE.format(root=str(ROOT), paths=[str(ACCEPTED), str(attack)])  # the first: the
    # server is up and one child waits ahead when the attack runs
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=600, env={**os.environ, "JUDGE_WARM": "on",
                                            "JUDGE_WARM_AHEAD": "on", "PYTHONPATH": pythonpath()})
    assert done.returncode == 0, done.stderr[-3000:]
    (first, first_text), (verdict, text) = json.loads(done.stdout.splitlines()[-1])
    assert first == "AC", first_text
    assert verdict == "AC", text
    assert "waiting ahead [" in text, text
    if ptrace_scope in ("absent", "0"):
        # the same attempts reached a dumpable process of this uid: what holds the judge's
        # processes is their own lock-down, not the kernel's policy
        assert f"/proc/{decoy}/mem read" in text and f"/proc/{decoy}/environ" in text, text


def test_the_server_and_a_waiting_child_are_locked_down_seen_from_outside(fq_problem, spawns):
    result = grade(fq_problem, ACCEPTED)
    assert result.verdict is Verdict.AC, verdict_of(result)
    server = the_server(spawns)
    child = waiting_child(server)
    assert status(server._proc.pid)["NoNewPrivs"] == "1"
    threads = [int(t.name) for t in Path(f"/proc/{child}/task").iterdir()]
    states = {tid: status(child, tid) for tid in threads}
    assert len(states) > 1 and all(s["Seccomp"] == "2" and s["NoNewPrivs"] == "1"
                                   and not s["CapEff"].strip("0") for s in states.values()), states
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.prctl(3, 0, 0, 0, 0) == 0, "the judge process is still dumpable"  # PR_GET_DUMPABLE


@pytest.mark.parametrize("ahead", ["on", "off"])
def test_every_thread_of_an_unisolated_worker_is_filtered_forked_ahead_or_not(
        fq_problem, spawns, monkeypatch, ahead):
    """JAX's threads start under the filter, as under bubblewrap (``tests/test_warm.py``): each
    carries it, with no capability and no new privileges, and a host callback can start
    neither a process nor a namespace."""
    monkeypatch.setenv("JUDGE_WARM_AHEAD", ahead)
    grade(fq_problem, ACCEPTED)
    server = the_server(spawns)
    if ahead == "on":
        waiting_child(server)
    result = grade(fq_problem, ADVERSARIAL / "warm_early_threads.py")
    assert the_server(spawns) is server and len(spawns) == 2
    assert result.verdict is Verdict.AC, verdict_of(result)


def test_a_step_that_fails_on_this_machine_is_said_once_and_runs_go_on(fq_problem, spawns,
                                                                         monkeypatch, capsys):
    """As on a machine the judge has no seccomp filter for: the server says so in ``ready``, the
    judge warns once, and every worker takes the other steps and grades."""
    def no_filter(machine=None):
        raise SandboxError("no seccomp filter for the test architecture")

    monkeypatch.setattr(seccomp, "seccomp_program", no_filter)
    monkeypatch.setattr(unsandboxed, "_said", set())
    for _ in range(2):
        result = grade(fq_problem, ACCEPTED)
        assert result.verdict is Verdict.AC, verdict_of(result)
    server = the_server(spawns)
    assert server.unconfined and "seccomp" in server.unconfined, server.unconfined
    said = [line for line in capsys.readouterr().err.splitlines()
            if "warm workers" in line and "not locked down" in line]
    assert len(said) == 1 and "seccomp" in said[0], said
    child = waiting_child(server)
    assert status(child)["Seccomp"] == OWN_SECCOMP and status(child)["NoNewPrivs"] == "1"
