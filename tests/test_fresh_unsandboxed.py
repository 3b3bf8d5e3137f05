"""Fresh workers without the sandbox (``--sandbox none`` with ``JUDGE_WARM=off``, or where no
warm server starts): each locks itself down as a warm one does, before anything else runs
(``judge.worker.fresh``: no capability, not dumpable, ``no_new_privs``, the seccomp filter), with
the steps this machine refuses found once per process and said once
(``judge.run.unsandboxed.lock_down_args``). So a submission reaches neither the judge nor
another run's worker (``tests/adversarial/warm_unsandboxed_reach.py`` with ``WORKERS=fresh``),
every thread of its worker carries the filter, and honest code still gets AC.

As in ``tests/test_warm_unsandboxed.py``, the attack is graded by a judge without any
capability, as an ordinary user's judge (a root judge's capabilities alone would keep a worker
without any out), and a dumpable decoy process of the same uid shows that the same attempts
reach what the judge's steps do not cover.
"""

import json
import os
import subprocess
import sys

import pytest
from tests.helpers import ROOT, pythonpath
from tests.hostile import (ADVERSARIAL, NO_CAPABILITIES, decoy, hostile,  # noqa: F401
                           ptrace_scope)

from judge.errors import SandboxError
from judge.grade import grading
from judge.grade.verdicts import Verdict
from judge.run import imports, seccomp, supervisor, unsandboxed
from judge.worker import child

ACCEPTED = ROOT / "submissions" / "fake_quant_ste" / "accepted" / "closure_vjp.py"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

#: An honest solution whose worker, its backend started, waits at import (at most 40 s, within
#: the problem's start-up limit)
#: until the file MARK exists: another run's fresh worker, beside the attack's.
NEIGHBOUR = """
import os, time
import jax
import jax.numpy as jnp

jnp.zeros(3).block_until_ready()  # the backend and its threads
deadline = time.monotonic() + 40
while not os.path.exists("__MARK__") and time.monotonic() < deadline:
    time.sleep(0.05)
""" + ACCEPTED.read_text()

#: A judge without capabilities grading the files of ``paths`` at once, each in a thread of its
#: own, with fresh workers and without the sandbox; the verdicts, in the order of ``paths``.
JUDGE = NO_CAPABILITIES + """
import json, threading
from judge.grade import grading
from judge.problem import spec
problem = spec.load({root!r} + "/problems/fake_quant_ste.yaml")
texts = {{}}


def grade(path):
    result = grading.grade(problem, path, examples_only=True, sandbox="none", source_gate=False)
    stdout = result.cases[0].details.get("stdout") if result.cases else ""
    texts[path] = [result.verdict.value, f"{{result.reason}} {{result.message}} | {{stdout}}"]


threads = [threading.Thread(target=grade, args=(path,)) for path in {paths!r}]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps([texts[path] for path in {paths!r}]))
"""


@pytest.fixture(autouse=True)
def fresh(monkeypatch):
    """Fresh workers, and this process's answer about the lock-down asked anew."""
    monkeypatch.setenv("JUDGE_WARM", "off")
    monkeypatch.setattr(unsandboxed, "_probed", {})
    monkeypatch.setattr(unsandboxed, "_said", set())


def grade(problem, path):
    return grading.grade(problem, path, examples_only=True, sandbox="none", source_gate=False)


def verdict_of(result) -> str:
    text = f"{result.verdict.value} [{result.reason}] {result.message}"
    stdout = result.cases[0].details.get("stdout") if result.cases else None
    return text + (f" | stdout: {stdout.strip()}" if stdout and stdout.strip() else "")


def test_a_fresh_worker_reaches_neither_the_judge_nor_another_runs_worker(tmp_path, ptrace_scope,
                                                                          decoy):
    mark = tmp_path / "attacked"
    attack = hostile("warm_unsandboxed_reach.py", tmp_path, DECOY=decoy, WORKERS="fresh",
                     MARK=mark)
    neighbour = tmp_path / "neighbour.py"
    neighbour.write_text(NEIGHBOUR.replace("__MARK__", str(mark)))
    script = JUDGE.format(root=str(ROOT), paths=[str(neighbour), str(attack)])
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=600, env={**os.environ, "JUDGE_WARM": "off",
                                            "PYTHONPATH": pythonpath()})
    assert done.returncode == 0, done.stderr[-3000:]
    (first, first_text), (verdict, text) = json.loads(done.stdout.splitlines()[-1])
    assert verdict == "AC", text
    assert first == "AC", first_text
    assert "another run's worker [" in text and "judge " in text, text
    assert "not locked down" not in done.stderr, done.stderr[-2000:]
    if ptrace_scope in ("absent", "0"):
        # the same attempts reached a dumpable process of this uid: what holds the judge and
        # the other worker is their own lock-down, not the kernel's policy
        assert f"/proc/{decoy}/mem read" in text and f"/proc/{decoy}/environ" in text, text


def test_every_thread_of_a_fresh_unisolated_worker_is_filtered(fq_problem):
    """JAX's and NumPy's threads start under the filter, with no capability and no new
    privileges, and a host callback can start neither a process nor a namespace."""
    result = grade(fq_problem, ADVERSARIAL / "warm_early_threads.py")
    assert result.verdict is Verdict.AC, verdict_of(result)


def test_a_step_that_fails_on_this_machine_is_said_once_and_runs_go_on(fq_problem, monkeypatch,
                                                                       capsys):
    """As on a machine the judge has no seccomp filter for: the probe finds that step failing,
    the judge warns once and leaves it out, and every worker takes the other steps and
    grades."""
    def no_filter(machine=None):
        raise SandboxError("no seccomp filter for the test architecture")

    monkeypatch.setattr(seccomp, "seccomp_program", no_filter)
    for _ in range(2):
        result = grade(fq_problem, ACCEPTED)
        assert result.verdict is Verdict.AC, verdict_of(result)
    said = [line for line in capsys.readouterr().err.splitlines() if "not locked down" in line]
    assert len(said) == 1 and "fresh workers" in said[0] and "seccomp" in said[0], said
    (config,) = [json.loads(text) for text in unsandboxed._probed.values()]
    assert config == {"seccomp": None, "skip": ["seccomp"]}, config


def test_an_interpreter_that_cannot_be_asked_takes_no_step_and_is_named(tmp_path, capsys):
    broken = tmp_path / "python"
    broken.write_text("#!/bin/sh\necho broken >&2\nexit 3\n")
    broken.chmod(0o755)
    args = unsandboxed.lock_down_args(str(broken), supervisor.PACKAGE_PARENT)
    assert args[0] == "--lock-down" and json.loads(args[1])["skip"] is None, args
    assert unsandboxed.lock_down_args(str(broken), supervisor.PACKAGE_PARENT) == args
    said = [line for line in capsys.readouterr().err.splitlines() if "not locked down" in line]
    assert len(said) == 1 and "probe did not answer" in said[0] and "broken" in said[0], said


def run_entry(lock_down: str) -> subprocess.CompletedProcess:
    code = imports.bootstrap(supervisor.PACKAGE_PARENT, "judge.worker.fresh", "run")
    return subprocess.run([sys.executable, "-I", "-B", "-c", code, "--lock-down", lock_down,
                           "--result-fd", "1"], input="", capture_output=True, text=True,
                          timeout=120, cwd=str(ROOT))


def test_a_step_that_fails_in_the_worker_ends_it_before_anything_is_read():
    # three bytes are no filter: the seccomp step fails, and nothing of the run is read
    done = run_entry(json.dumps({"seccomp": "AAAA", "skip": []}))
    assert done.returncode == child.SETUP_FAILED, (done.returncode, done.stderr)
    assert "judge worker setup failed: " in done.stderr and "seccomp" in done.stderr, done.stderr
    done = run_entry("not json")
    assert done.returncode == child.SETUP_FAILED and "setup failed" in done.stderr, done.stderr


def test_the_entry_refuses_arguments_without_the_lock_down():
    code = imports.bootstrap(supervisor.PACKAGE_PARENT, "judge.worker.fresh", "run")
    done = subprocess.run([sys.executable, "-I", "-B", "-c", code, "--result-fd", "1"],
                          input="", capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "usage: fresh --lock-down" in done.stderr, done.stderr
