"""What many test files share: where the repository is, running the ``judge`` command,
splitting an exhaustive sweep between the default run and the ``slow`` group, skipping a
test that needs a TCP socket where the machine opens none, a Redis server of a test's own,
and reading and grading a folder of documented attack files (``tests/adversarial/...``)."""

import contextlib
import functools
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Hashable, Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

_PARAM = type(pytest.param(None))  # what pytest.param returns

#: The repository: problems/, submissions/, judge/ and tests/ are below it.
ROOT = Path(__file__).resolve().parent.parent


def pythonpath() -> str:
    """PYTHONPATH for a child Python that runs this checkout: the checkout first, then the
    folders this process's PYTHONPATH names (where JAX is, on a TPU VM or a cluster)."""
    return os.pathsep.join([str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))])


@functools.cache
def _tcp_refused() -> str | None:
    """Why this machine opens no TCP socket on the loopback (some sandboxed VMs, gVisor's
    Cloud TPU runtime among them, refuse every internet socket), or None when it does."""
    try:
        socket.create_server(("127.0.0.1", 0)).close()
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def skip_without_tcp() -> None:
    """Skip the calling test where no TCP socket can be opened on 127.0.0.1 (tried, not
    assumed from the machine's name); everywhere else, including CI, it runs."""
    why = _tcp_refused()
    if why is not None:
        pytest.skip(f"this machine opens no TCP socket on 127.0.0.1 ({why}), and the test needs one")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 (the test is skipped where there are none:
    ``skip_without_tcp``)."""
    skip_without_tcp()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def redis_server(folder: Path):
    """A redis-server of its own on a free port, keeping its files in ``folder``: (its URL,
    its process). Skipped where none is installed, unless $JUDGE_REQUIRE_REDIS (CI) is set."""
    server = shutil.which("redis-server")
    if server is None:
        if os.environ.get("JUDGE_REQUIRE_REDIS"):  # CI installs it: a missing one is a failure
            pytest.fail("redis-server is not installed and $JUDGE_REQUIRE_REDIS is set")
        pytest.skip("redis-server is not installed here (apt-get install redis-server); CI installs it")
    port = free_port()
    proc = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(folder)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert time.monotonic() < deadline and proc.poll() is None, "redis-server did not start"
            time.sleep(0.1)
        yield f"redis://127.0.0.1:{port}/0", proc
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def case_count(problem_id: str) -> int:
    """How many cases (examples and hidden) a bundled problem has, read from its spec."""
    from judge.problem import spec
    return len(spec.load(ROOT / "problems" / f"{problem_id}.yaml").cases)


def judge(*args: str, cwd: str | Path = ROOT, env: Mapping[str, str] | None = None,
          timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``python -m judge ARGS`` in ``cwd`` with ``env`` (None: this process's environment)
    and return what it did, stdout and stderr captured as text."""
    return subprocess.run([sys.executable, "-m", "judge", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def grade_known(problem, folder: str, name: str):
    """Grade the bundled submission ``submissions/<problem>/<folder>/<name>.py`` on the examples
    alone, as a student's would be graded when it is expected to be accepted (source gate on)
    and with the gate off otherwise (the cases and rules behind an attack are what is tested)."""
    from judge.grade import grading

    path = ROOT / "submissions" / problem.id / folder / f"{name}.py"
    return grading.grade(problem, path, examples_only=True, hints=False,
                         source_gate=folder == "accepted")


def sampled(values: Iterable, key: Callable[[Any], Hashable | list],
            ids: Callable[[Any], str] | None = None) -> list:
    """An exhaustive sweep as pytest params, split between the two groups of the suite: the first
    value of each kind (in the given order) runs by default, every other value is marked ``slow``
    (``python -m pytest -m slow`` runs them). So the default run keeps one of each kind, and
    nothing is dropped. ``key(value)`` is the value's kind, or a list of its kinds (it runs by
    default if it is the first of any of them). ``values`` may be ``pytest.param``s: their own
    marks and id are kept."""
    seen: set = set()
    params = []
    for value in values:
        if not isinstance(value, _PARAM):
            value = pytest.param(value, id=ids(value) if ids else None)
        kinds = key(value.values[0] if len(value.values) == 1 else value.values)
        kinds = kinds if isinstance(kinds, list) else [kinds]
        marks = list(value.marks) + ([] if not seen.issuperset(kinds) else [pytest.mark.slow])
        seen.update(kinds)
        params.append(pytest.param(*value.values, marks=marks, id=value.id))
    return params


# --- a folder of documented attack files ---------------------------------------------------------

#: a field's value runs on over the lines below it that are indented by two spaces
_FIELD = re.compile(r"^(Problem|Expected|Open|Cases):[ \t]*(.+(?:\n  .+)*)$", re.M)


def corpus_fields(path: Path) -> dict:
    """The fields of an attack file's docstring: ``Problem`` (the problem's id), ``Expected``
    (``VERDICT [reason]``), ``Open`` (a hole still open: its grade is a strict expected failure)
    and ``Cases`` (``all``: graded on every case, else on the examples alone)."""
    return {k: " ".join(v.split()) for k, v in _FIELD.findall(path.read_text())}


def corpus_files(folder: Path) -> list[Path]:
    """The attack files of ``folder``: those whose docstring names a problem."""
    return [p for p in sorted(folder.glob("*.py")) if "Problem" in corpus_fields(p)]


def corpus_params(paths: Iterable[Path], kind: Callable[[Path], Hashable | list] | None = None) -> list:
    """The files as pytest params, a file with an ``Open:`` line a strict expected failure, split
    by ``sampled``: the first file of each kind (by default, of each expected verdict) runs in the
    default run, the others under ``slow``."""
    values = []
    for path in paths:
        open_hole = corpus_fields(path).get("Open")
        marks = [pytest.mark.xfail(strict=True, reason=open_hole)] if open_hole else []
        values.append(pytest.param(path, marks=marks, id=path.stem))
    kind = kind or (lambda path: corpus_fields(path)["Expected"].split()[0])
    return sampled(values, key=kind)


def grade_corpus_file(path: Path, sandbox: str):
    """Grade one attack file as a student's submission would be (source gate on, the result cache
    used), on every case when its docstring says ``Cases: all`` and else on the examples, and
    check the verdict and reason its docstring expects."""
    from judge.grade import grading
    from judge.grade.verdicts import Verdict
    from judge.problem import spec

    fields = corpus_fields(path)
    expected = fields["Expected"].split()
    problem = spec.load(ROOT / "problems" / f"{fields['Problem']}.yaml")
    result = grading.grade(problem, path, examples_only=fields.get("Cases") != "all", hints=False,
                           sandbox=sandbox, source_gate=True, use_cache=True)
    messages = [f"{c.name}: {c.verdict.value} {c.reason}: {c.message[:300]}" for c in result.cases]
    assert result.verdict is Verdict(expected[0]), messages
    if len(expected) > 1:
        assert result.reason == expected[1], messages


def check_corpus_documented(paths: list[Path]) -> None:
    """Every attack file names a problem that exists, one expected verdict with at most one
    reason, and ``Cases: all`` or nothing."""
    from judge.grade.verdicts import Verdict

    assert paths
    for path in paths:
        fields = corpus_fields(path)
        assert "Expected" in fields, path.name
        verdict, *reason = fields["Expected"].split()
        assert Verdict(verdict) and len(reason) <= 1, path.name
        assert (ROOT / "problems" / f"{fields['Problem']}.yaml").is_file(), path.name
        assert fields.get("Cases", "all") == "all", path.name


def record_warm_spawns(monkeypatch) -> list:
    """No warm server running yet, and none reached through a ``judge serve`` process that may
    be running here: each grade starts a server of this process's own. Returns the list of the
    servers each run was forked by, which grows as runs are made; ``warm.close_all()`` after."""
    import threading

    from judge.run import warm

    monkeypatch.setattr(warm, "connect", lambda *args, **kwargs: None)
    warm.close_all()
    calls: list = []
    lock = threading.Lock()
    original = warm.WarmServer.spawn

    def spawn(self, *args, **kwargs):
        with lock:
            calls.append(self)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(warm.WarmServer, "spawn", spawn)
    return calls
