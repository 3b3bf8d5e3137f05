"""Judge side of the process split: start a worker, feed it case inputs, collect its messages.

The judge process never imports a submission. It starts ``judge.worker.main`` in a fresh Python
(``-I``: no user site, no PYTHONPATH), with a rebuilt environment, its own session (so the whole
process tree can be killed) and a private working directory. Results arrive as JSON lines on a
dedicated pipe; the submission's stdout and stderr go to two other pipes that are drained into
bounded buffers and never parsed. Deadlines are kept here, by the clock of this process.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from .worker import protocol

PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent)
BOOTSTRAP = (
    "import sys; sys.path.insert(0, {parent!r}); "
    "from judge.worker.main import main; main()"
)
#: Environment variables passed through to the worker; everything else is dropped.
ENV_ALLOWLIST = ("PATH", "LANG", "LC_ALL", "TZ", "SYSTEMROOT")
STREAM_CAP = 64 * 1024


@dataclass
class WorkerRun:
    """Everything observed about one worker run, as plain data."""

    ready: dict | None = None
    loaded: dict | None = None
    cases: dict[int, dict] = field(default_factory=dict)
    case_times: dict[int, float] = field(default_factory=dict)  # measured here, between messages
    done: bool = False
    timed_out: bool = False
    timeout_phase: str | None = None   # "startup" or "case"
    protocol_error: str | None = None
    returncode: int | None = None
    stdout: str = ""
    stderr: str = ""
    wall_s: float = 0.0


class _Drain(threading.Thread):
    """Reads a stream to the end, keeping the first ``cap`` bytes."""

    def __init__(self, stream, cap: int = STREAM_CAP):
        super().__init__(daemon=True)
        self.stream, self.cap = stream, cap
        self.kept = bytearray()
        self.total = 0
        self.start()

    def run(self):
        try:
            while chunk := self.stream.read(65536):
                self.total += len(chunk)
                room = self.cap - len(self.kept)
                if room > 0:
                    self.kept += chunk[:room]
        except (OSError, ValueError):
            pass

    def text(self) -> str:
        out = self.kept.decode("utf-8", errors="replace")
        if self.total > len(self.kept):
            out += f"\n[... {self.total - len(self.kept)} more bytes not kept]"
        return out


def worker_env(workdir: str) -> dict:
    env = {k: os.environ[k] for k in ENV_ALLOWLIST if k in os.environ}
    env.update({
        "HOME": workdir, "TMPDIR": workdir, "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0", "JAX_PLATFORMS": "cpu", "TF_CPP_MIN_LOG_LEVEL": "2",
    })
    return env


def _kill_tree(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_worker(request: dict, *, startup_timeout: float, case_timeout: float,
               python: str = sys.executable) -> WorkerRun:
    """Run one worker on ``request`` (see ``protocol``) and return what it reported."""
    run = WorkerRun()
    started = time.monotonic()
    read_fd, write_fd = os.pipe()
    with tempfile.TemporaryDirectory(prefix="judge-worker-") as workdir:
        try:
            proc = subprocess.Popen(
                [python, "-I", "-B", "-c", BOOTSTRAP.format(parent=PACKAGE_PARENT),
                 "--result-fd", str(write_fd)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                pass_fds=(write_fd,), cwd=workdir, env=worker_env(workdir),
                start_new_session=True)
        finally:
            os.close(write_fd)
        drains = [_Drain(proc.stdout), _Drain(proc.stderr)]
        threading.Thread(target=_feed, args=(proc.stdin, protocol.dumps(request).encode()),
                         daemon=True).start()
        try:
            _collect(run, read_fd, started, startup_timeout, case_timeout)
        finally:
            os.close(read_fd)
            if run.timed_out or run.protocol_error:
                _kill_tree(proc)
            try:
                run.returncode = proc.wait(timeout=5 if run.done else 2)
            except subprocess.TimeoutExpired:
                _kill_tree(proc)
                run.returncode = proc.wait()
            _kill_tree(proc)  # anything the submission left running in its session
            for d in drains:
                d.join(timeout=2)
            run.stdout, run.stderr = drains[0].text(), drains[1].text()
    run.wall_s = time.monotonic() - started
    return run


def _feed(stream, data: bytes) -> None:
    try:
        stream.write(data)
        stream.close()
    except (BrokenPipeError, OSError, ValueError):
        pass


def _collect(run: WorkerRun, fd: int, started: float, startup_timeout: float,
             case_timeout: float) -> None:
    """Read result lines until ``done``, end of pipe, a protocol error or a deadline."""
    selector = selectors.DefaultSelector()
    selector.register(fd, selectors.EVENT_READ)
    buffer = bytearray()
    last = started
    while not run.done:
        in_cases = run.loaded is not None
        deadline = last + (case_timeout if in_cases else startup_timeout)
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not selector.select(timeout=remaining):
            run.timed_out = True
            run.timeout_phase = "case" if in_cases else "startup"
            return
        chunk = os.read(fd, 65536)
        if not chunk:
            return  # the worker closed the channel: exited or crashed
        buffer += chunk
        if len(buffer) > protocol.MAX_MESSAGE_BYTES:
            run.protocol_error = "a result message exceeded the size limit"
            return
        while b"\n" in buffer:
            line, _, rest = bytes(buffer).partition(b"\n")
            buffer = bytearray(rest)
            now = time.monotonic()
            try:
                _accept(run, protocol.loads(line), now - last)
            except protocol.ProtocolError as exc:
                run.protocol_error = str(exc)
                return
            last = now


def _accept(run: WorkerRun, msg: dict, elapsed: float) -> None:
    """Record one message, checking that it comes in the documented order."""
    kind = msg["type"]
    if kind == "ready" and run.ready is None:
        if msg.get("protocol") != protocol.PROTOCOL:
            raise protocol.ProtocolError(f"worker speaks protocol {msg.get('protocol')!r}")
        run.ready = msg
    elif kind == "loaded" and run.ready is not None and run.loaded is None:
        run.loaded = msg
    elif kind == "case" and run.loaded is not None and run.loaded.get("ok"):
        index = msg.get("index")
        if not isinstance(index, int) or index in run.cases:
            raise protocol.ProtocolError(f"unexpected case index {index!r}")
        run.cases[index] = msg
        run.case_times[index] = elapsed
    elif kind == "done" and run.loaded is not None:
        run.done = True
    else:
        raise protocol.ProtocolError(f"unexpected {kind!r} message")
