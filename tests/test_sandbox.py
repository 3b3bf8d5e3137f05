"""The sandbox: hostile submissions (tests/adversarial/) under --sandbox bwrap, resource limits,
the unforgeable result channel, and what --sandbox none and auto do.

Every hostile run must come back with its verdict within its time limit plus start-up: SLACK_S
covers importing JAX and tearing the sandbox down on a busy two-core machine.
"""

import dataclasses
import json
import os
import secrets
import socket
import sys
import threading
import time
from pathlib import Path

import pytest
from tests.helpers import ROOT, judge as judge_cli, skip_without_tcp
from tests.hostile import ADVERSARIAL, hostile, needs_bwrap

from judge.grade import grading
from judge.run import sandbox, seccomp
from judge.grade.verdicts import Verdict

ACCEPTED = ROOT / "submissions" / "fake_quant_ste" / "accepted" / "closure_vjp.py"
SLACK_S = 25.0



def timed_grade(problem, path, *, limit_s=None, sandbox_mode="bwrap", **kwargs):
    """With the source gate off: it would refuse most of these attacks before they run, and
    these tests are about the sandbox behind it."""
    started = time.monotonic()
    result = grading.grade(problem, path, examples_only=True, sandbox=sandbox_mode,
                           time_per_case_s=limit_s, source_gate=False, **kwargs)
    elapsed = time.monotonic() - started
    allowed = (limit_s or problem.limits["time_per_case_s"]) + SLACK_S
    assert elapsed < allowed, f"the judge took {elapsed:.1f} s (allowed {allowed:.0f} s)"
    return result


def verdict_of(result) -> str:
    return f"{result.verdict.value} [{result.reason}] {result.message}"


# --- hostile submissions under bwrap ----------------------------------------------------------

#: Touching memory is slow on a loaded VM: a smaller limit keeps this test well inside its time.
SMALL_MEMORY = {"memory_mb": 1024}

OUTCOMES = [
    ("fork_loop.py", Verdict.RTE, "exception"),
    ("thread_bomb.py", Verdict.RTE, None),
    ("alloc_unbounded.py", Verdict.MLE, "memory_limit"),  # with SMALL_MEMORY
    ("alloc_30gb_jax.py", Verdict.MLE, "memory_limit"),
    ("alloc_30gb_at_import.py", Verdict.MLE, "memory_limit"),
    ("flood_stdout.py", Verdict.OLE, "output_limit"),
    ("flood_judge_pipes.py", Verdict.OLE, "output_limit"),
    ("fake_verdict.py", Verdict.WA, "wrong_value"),
    ("forge_result_channel.py", Verdict.RJ, "channel_tampered"),
    ("exit_at_import.py", Verdict.RTE, "exit_called"),
    ("os_exit_mid_case.py", Verdict.RTE, "exited_early"),
    ("close_channel_and_linger.py", Verdict.RTE, "exited_early"),
    ("tamper_make_jaxpr.py", Verdict.RJ, "instrument_tampered"),
    ("tamper_and_restore.py", Verdict.RJ, "instrument_tampered"),
    ("tamper_case_runner.py", Verdict.RJ, "instrument_tampered"),
    ("fill_memory_filesystems.py", Verdict.AC, "ok"),
]


@needs_bwrap
@pytest.mark.parametrize("name, verdict, reason", OUTCOMES, ids=[o[0] for o in OUTCOMES])
def test_hostile_submission_gets_its_verdict(fq_problem, tmp_path, name, verdict, reason):
    if name == "alloc_unbounded.py":
        fq_problem = dataclasses.replace(fq_problem, limits={**fq_problem.limits, **SMALL_MEMORY})
    result = timed_grade(fq_problem, hostile(name, tmp_path))
    assert result.verdict is verdict, verdict_of(result)
    if reason:
        assert result.reason == reason, verdict_of(result)
    if verdict is Verdict.WA:  # printed text changed nothing: every case is judged on its values
        assert {c.reason for c in result.cases} == {"wrong_value"}


@needs_bwrap
def test_filesystem_walk_finds_no_problem_data(fq_problem, tmp_path):
    result = timed_grade(fq_problem, hostile("walk_filesystem.py", tmp_path, ROOT=ROOT))
    assert result.verdict is Verdict.AC, verdict_of(result)


@needs_bwrap
def test_no_secret_environment_variables(fq_problem, tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_TEST_SECRET_TOKEN", secrets.token_hex(8))
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "not-a-real-key")
    result = timed_grade(fq_problem, hostile("read_secrets.py", tmp_path))
    assert result.verdict is Verdict.AC, verdict_of(result)


class Listener:
    """A TCP listener on the judge's 127.0.0.1 recording what each connection sends."""

    def __init__(self):
        skip_without_tcp()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.received: list[bytes] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    self.received.append(conn.recv(100))
                except OSError:
                    self.received.append(b"")

    def close(self):
        self.stop.set()
        self.thread.join(timeout=5)
        self.sock.close()


@pytest.fixture
def listener():
    server = Listener()
    with socket.create_connection(("127.0.0.1", server.port), timeout=2) as probe:
        probe.sendall(b"self-test")  # the listener works from the judge's side
    yield server
    server.close()


@needs_bwrap
def test_no_network_to_the_judges_loopback(fq_problem, tmp_path, listener):
    result = timed_grade(fq_problem, hostile("connect_localhost.py", tmp_path, PORT=listener.port))
    assert result.verdict is Verdict.AC, verdict_of(result)
    assert b"leaked" not in listener.received


def marker_paths(tmp_path):
    name = f"marker-{secrets.token_hex(6)}"
    paths = {"TMP_MARKER": tmp_path / "outside" / name, "SHARED_MARKER": Path("/tmp") / name,
             "ROOT": ROOT, "NAME": name}
    return paths, [paths["TMP_MARKER"], paths["SHARED_MARKER"], ROOT / name, Path.home() / name]


@needs_bwrap
def test_files_written_outside_the_workdir_do_not_appear(fq_problem, tmp_path):
    tokens, outside = marker_paths(tmp_path)
    result = timed_grade(fq_problem, hostile("write_marker.py", tmp_path, **tokens))
    assert result.verdict is Verdict.AC, verdict_of(result)
    assert [p for p in outside if p.exists()] == []


@needs_bwrap
def test_infinite_loop_is_killed_at_the_case_time_limit(fq_problem, tmp_path):
    result = timed_grade(fq_problem, hostile("infinite_loop.py", tmp_path), limit_s=2.0)
    assert (result.verdict, result.reason) == (Verdict.TLE, "time_limit"), verdict_of(result)


@needs_bwrap
@pytest.mark.parametrize("name", ["cpu_burn.py", "cpu_burn_ignoring_sigxcpu.py"])
def test_cpu_time_limit(fq_problem, tmp_path, name):
    problem = dataclasses.replace(fq_problem, limits={**fq_problem.limits, "cpu_s": 5})
    started = time.monotonic()
    result = grading.grade(problem, hostile(name, tmp_path), examples_only=True, sandbox="bwrap",
                           time_per_case_s=120, source_gate=False)
    assert time.monotonic() - started < 60  # long before the 120 s wall limit
    assert (result.verdict, result.reason) == (Verdict.TLE, "cpu_time_limit"), verdict_of(result)


# --- the same attacks without the sandbox: the tests above can see a leak -------------------------

def test_without_sandbox_the_loopback_is_reachable(fq_problem, tmp_path, listener, capsys):
    path = hostile("connect_localhost.py", tmp_path, PORT=listener.port)
    result = timed_grade(fq_problem, path, sandbox_mode="none")
    assert (result.verdict, result.reason) == (Verdict.RTE, "import_exception"), verdict_of(result)
    assert b"leaked" in listener.received
    assert "sandbox disabled" in capsys.readouterr().err


def test_without_sandbox_markers_appear(fq_problem, tmp_path):
    tokens, outside = marker_paths(tmp_path)
    try:
        result = timed_grade(fq_problem, hostile("write_marker.py", tmp_path, **tokens),
                             sandbox_mode="none")
        assert result.verdict is Verdict.AC, verdict_of(result)
        assert tokens["TMP_MARKER"].exists()
    finally:
        for p in outside:
            p.unlink(missing_ok=True)


def test_limits_still_apply_without_sandbox(fq_problem, tmp_path):
    problem = dataclasses.replace(fq_problem, limits={**fq_problem.limits, **SMALL_MEMORY})
    result = timed_grade(problem, hostile("alloc_unbounded.py", tmp_path), sandbox_mode="none")
    assert (result.verdict, result.reason) == (Verdict.MLE, "memory_limit"), verdict_of(result)


# --- modes, warnings and failures --------------------------------------------------------------

def test_none_grades_correctly_and_warns_on_every_run(fq_problem, capsys):
    for _ in range(2):
        result = grading.grade(fq_problem, ACCEPTED, examples_only=True, sandbox="none")
        assert result.verdict is Verdict.AC, verdict_of(result)
    err = capsys.readouterr().err.splitlines()
    warnings = [line for line in err if line.startswith("judge: warning:")]
    assert len(warnings) == 2
    assert "hidden cases" in warnings[0] and "network" in warnings[0]


def test_auto_falls_back_with_a_warning_and_bwrap_fails_clearly(fq_problem, monkeypatch, capsys):
    monkeypatch.setattr(sandbox, "BWRAP", "bwrap-is-not-installed-here")
    monkeypatch.setattr(sandbox, "_probe_cache", {})
    result = grading.grade(fq_problem, ACCEPTED, examples_only=True, sandbox="auto")
    assert result.verdict is Verdict.AC, verdict_of(result)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bwrap sandbox unavailable" in err and "not found" in err
    with pytest.raises(sandbox.SandboxError, match="bwrap-is-not-installed-here not found"):
        grading.grade(fq_problem, ACCEPTED, examples_only=True, sandbox="bwrap")


@needs_bwrap
def test_bwrap_mode_prints_no_warning(fq_problem, capsys):
    result = grading.grade(fq_problem, ACCEPTED, examples_only=True, sandbox="bwrap")
    assert result.verdict is Verdict.AC, verdict_of(result)
    assert "warning" not in capsys.readouterr().err


def test_cli_sandbox_bwrap_without_bwrap_exits_2():
    env = {**os.environ, "PATH": os.path.dirname(sys.executable)}
    r = judge_cli("grade", str(ACCEPTED), "-p", "fake_quant_ste", "--sandbox", "bwrap", env=env)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "--sandbox bwrap" in r.stderr and "bwrap not found" in r.stderr


def test_cli_env_var_and_option():
    env = {**os.environ, sandbox.ENV_VAR: "none"}
    r = judge_cli("grade", str(ACCEPTED), "-p", "fake_quant_ste", "--examples-only",
                  "--format", "json", env=env)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["verdict"] == "AC" and "sandbox disabled" in r.stderr
    env[sandbox.ENV_VAR] = "bogus"
    r = judge_cli("grade", str(ACCEPTED), "-p", "fake_quant_ste", env=env)
    assert r.returncode == 2 and "unknown sandbox mode 'bogus'" in r.stderr
    r = judge_cli("grade", str(ACCEPTED), "-p", "fake_quant_ste", "--examples-only",
                  "--sandbox", "none", env=env)  # the option wins over the variable
    assert r.returncode == 0, r.stderr


# --- the sandbox's pieces ----------------------------------------------------------------------

def test_seccomp_program_shape():
    for machine in ("x86_64", "aarch64"):
        program = seccomp.seccomp_program(machine)
        assert len(program) % 8 == 0 and 40 < len(program) // 8 < 255
    with pytest.raises(sandbox.SandboxError, match="architecture"):
        seccomp.seccomp_program("sparc64")


def test_bwrap_command_line_exposes_only_what_python_needs():
    argv = sandbox.bwrap_argv(sys.executable, ["-c", "pass"], seccomp_fd=7, submission_fd=8,
                              hide=[ROOT / "submissions"])
    for flag in ("--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
                 "--new-session", "--seccomp"):
        assert flag in argv
    assert argv[argv.index("--cap-drop") + 1] == "ALL"
    assert "--bind" not in argv and "--dev-bind" not in argv  # nothing of the host is writable
    sources = [Path(argv[i + 1]) for i, a in enumerate(argv) if a == "--ro-bind"]
    home = Path.home().resolve()
    for src in sources:
        for secret in (ROOT, ROOT / "problems", ROOT / "reference", home):
            assert not (src == secret or secret.is_relative_to(src)), f"{src} exposes {secret}"
    # From the checkout: the worker package, and the Python installation itself when it is a
    # virtual environment inside the checkout (the README suggests .venv there).
    venv = Path(sys.prefix).resolve()
    expected = {ROOT / "judge" / "__init__.py", ROOT / "judge" / "worker"}
    expected |= {venv} if venv.is_relative_to(ROOT) else set()
    assert {p for p in sources if p.is_relative_to(ROOT)} == expected


def test_bwrap_command_line_refuses_to_expose_a_hidden_folder():
    with pytest.raises(sandbox.SandboxError, match="would expose"):
        sandbox.bwrap_argv(sys.executable, [], seccomp_fd=7, hide=[Path(sys.prefix) / "lib"])


def test_limits_come_from_the_spec(fq_problem):
    limits = sandbox.rlimits(fq_problem.limits)
    assert "RLIMIT_AS" not in limits  # set by the worker once JAX is up: sandbox.memory_bytes
    assert sandbox.memory_bytes(fq_problem.limits) == 2048 * 2**20
    assert limits["RLIMIT_CPU"] == [120, 122]
    assert limits["RLIMIT_FSIZE"] == [1024 * 1024] * 2
    assert limits["RLIMIT_CORE"] == [0, 0]


def test_unknown_modes_are_refused(monkeypatch):
    with pytest.raises(sandbox.SandboxError, match="unknown sandbox mode"):
        sandbox.requested_mode("docker")
    monkeypatch.setenv(sandbox.ENV_VAR, "NONE")
    assert sandbox.requested_mode(None) == "none"
    monkeypatch.delenv(sandbox.ENV_VAR)
    assert sandbox.requested_mode(None) == "auto"


def test_hidden_inputs_reach_the_worker_only_after_the_examples(fq_problem):
    """Output and exception text are shown for examples; hidden inputs must not be there yet."""
    path = ADVERSARIAL / "peek_hidden_inputs.py"
    result = grading.grade(fq_problem, path, source_gate=False)  # the gate refuses gc
    examples = [c for c in result.cases if c.visibility == "example"]
    assert {c.reason for c in examples} == {"exception"}
    for c in examples:
        assert "case inputs in memory: [0, 1, 2]" in c.message, c.message
        assert "[0, 1, 2]" in c.details["stdout"]
    hidden = [c for c in result.cases if c.visibility == "hidden"]
    assert hidden and all(c.reason == "exception" for c in hidden)  # they still ran


def test_private_tmp_does_not_hide_a_python_installed_under_tmp():
    """A virtual environment in a checkout under /tmp is mounted on top of the private /tmp."""
    argv = sandbox.bwrap_argv(sys.executable, ["-c", "pass"], seccomp_fd=9)
    tmpfs_at = argv.index("/tmp") if "--tmpfs" == argv[argv.index("/tmp") - 1] else None
    assert tmpfs_at is not None
    binds = [i for i, arg in enumerate(argv) if arg == "--ro-bind"]
    assert all(i > tmpfs_at for i in binds)


# --- failing closed: the commands that grade others' code -------------------------------------

def _without_bwrap() -> dict:
    """An environment where bwrap cannot be found and no sandbox mode is said."""
    env = {k: v for k, v in os.environ.items() if k != sandbox.ENV_VAR}
    env["PATH"] = os.path.dirname(sys.executable)
    return env


@pytest.mark.parametrize("command", ["grade", "batch"])
def test_grade_and_batch_grade_nothing_without_the_sandbox_unless_told(command, tmp_path):
    target = ACCEPTED
    if command == "batch":
        (tmp_path / "class").mkdir()
        (tmp_path / "class" / "alice.py").write_text(ACCEPTED.read_text())
        target = tmp_path / "class"
    extra = ["--out", str(tmp_path / "report.json"), "--format", "json",
             "--journal", str(tmp_path / "journal")] if command == "batch" else []
    r = judge_cli(command, str(target), "-p", "fake_quant_ste", *extra, env=_without_bwrap())
    assert r.returncode == 2, r.stdout + r.stderr
    assert "bwrap sandbox cannot start" in r.stderr + r.stdout and "--sandbox none" in r.stderr + r.stdout
    assert "sandbox disabled" not in r.stderr
    assert not (tmp_path / "report.json").exists()  # the batch stopped before its first
    r = judge_cli(command, str(target), "-p", "fake_quant_ste", "--sandbox", "none",
                  *extra, env=_without_bwrap())  # said explicitly: graded, with the warning
    assert r.returncode == 0, r.stdout + r.stderr
    assert "sandbox disabled (--sandbox none)" in r.stderr
