"""Warm workers, judge side: one fork server per sandbox setup, shared by every run of this
process, so a submission's worker starts with JAX already imported.

The server (``judge.worker.forkserver``, which documents the control channel) is started on the
first run that needs it, inside bubblewrap when the run is sandboxed, and ends with this process.
Each run still gets a fresh process, forked before any JAX computation and walled off from the
server and from other runs; the runner talks to it through the same pipes and result channel
as to a fresh worker. When a server cannot start here (no user namespaces inside bubblewrap,
say), runs fall back to fresh workers with a one-line warning. A process that gets a server
without the sandbox is made not dumpable first (``judge.run.unsandboxed``). ``JUDGE_WARM=off``
turns warm workers off (every run starts a fresh Python).
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from judge.run import cache, imports, tasks, unsandboxed
from judge.run import sandbox as sandboxing
from judge.run import seccomp, server_command

if TYPE_CHECKING:  # not imported at run time: this module is imported before the server starts
    from judge.run.settings import Settings

#: How long a server may take to import JAX and report ready.
START_TIMEOUT_S = 120.0
#: Idle servers kept per process (each holds an imported JAX); busy ones are never stopped.
MAX_SERVERS = 2


def enabled() -> bool:
    return os.environ.get("JUDGE_WARM", "on").lower() not in ("off", "0", "no", "false")


class ServerError(Exception):
    """The fork server stopped or misbehaved (an internal error, never the submission's)."""


class WarmProcess:
    """One forked worker, seen from the judge: the same surface the runner uses for a fresh one."""

    def __init__(self, server: "Connection", stdin, stdout, stderr):
        self.server, self.id = server, 0
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.returncode: int | None = None
        self.cpu_s: float | None = None
        self.lost = False  # the server ended before reporting this worker's exit
        self._exited = threading.Event()

    @property
    def signal(self) -> int | None:
        """The signal that ended the worker, if one did (an isolated one's keeper ends so too)."""
        code = self.returncode
        return -code if code is not None and code < 0 else None

    def _finish(self, returncode: int | None, cpu_s: float | None, lost: bool) -> None:
        self.returncode, self.cpu_s, self.lost = returncode, cpu_s, lost
        self._exited.set()

    def kill(self) -> None:
        if not self._exited.is_set():
            try:
                self.server.kill(self.id)
            except ServerError:
                pass

    def wait(self, timeout: float | None = None) -> float | None:
        """Wait for the worker to end; its CPU time. Raises subprocess.TimeoutExpired."""
        if not self._exited.wait(timeout):
            raise subprocess.TimeoutExpired(f"warm worker {self.id}", timeout)
        return self.cpu_s


class Connection:
    """The judge's end of one control channel of the fork server protocol (documented in
    ``judge.worker.forkserver``): to a server this process started (``WarmServer``) or to one a
    ``judge warm`` process keeps running (``ServeClient``)."""
    origins = None  # where the server imported JAX from, as its ``ready`` said (imports.agrees)
    unconfined = None  # without isolation: what its ``ready`` said does not hold here

    def __init__(self, sock: socket.socket):
        self._sock = sock
        self.busy = 0
        self.error: str | None = None
        self._ready = threading.Event()
        self._lock = threading.Lock()
        self._runs: dict[int, object] = {}  # run id -> on_exit(returncode, cpu_s, lost)
        self._next_id = 0

    def start_reading(self) -> None:
        threading.Thread(target=self._read, daemon=True).start()

    def send(self, message: dict, fds=()) -> None:
        data = json.dumps(message).encode()
        with self._lock:
            try:
                socket.send_fds(self._sock, [data], list(fds)) if fds else self._sock.send(data)
            except OSError as exc:
                raise ServerError(f"the warm worker server is gone ({exc})") from None

    def _read(self) -> None:
        try:
            while data := self._sock.recv(65536):
                message = json.loads(data)
                op = message.get("op")
                if op == "ready":
                    self.origins, self.unconfined = message.get("origins"), message.get("unconfined")
                    self._ready.set()
                elif op == "failed":
                    self.error = str(message.get("error"))[:500]
                    self._ready.set()
                elif op == "exited":
                    with self._lock:
                        on_exit = self._runs.pop(message.get("id"), None)
                        self.busy -= on_exit is not None
                    if on_exit is not None:
                        on_exit(message.get("returncode"), message.get("cpu_s"),
                                bool(message.get("lost")))
        except (OSError, ValueError):
            pass
        self.error = self.error or self._why_stopped()
        self._ready.set()
        for on_exit in list(self._runs.values()):
            on_exit(None, None, True)
        self._runs.clear()

    def _why_stopped(self) -> str:
        return "the warm worker server closed the connection"

    def wait_ready(self, timeout: float = START_TIMEOUT_S) -> bool:
        self._ready.wait(timeout)
        if not self._ready.is_set():
            self.error = f"the warm worker server did not start within {timeout:.0f} s"
        return self.error is None

    def forward(self, fds: list[int], workdir: str | None, cache: str | None, on_exit) -> int:
        """Ask for a worker on the descriptors ``fds`` (stdin, stdout, stderr, result,
        submission, and optionally the run's task group); ``on_exit(returncode, cpu_s, lost)``
        is called when it ends. Its run id."""
        with self._lock:
            self._next_id += 1
            run_id = self._next_id
            self._runs[run_id] = on_exit
            self.busy += 1
        try:
            self.send({"op": "run", "id": run_id, "workdir": workdir, "cache": cache}, fds)
        except ServerError:
            with self._lock:
                self._runs.pop(run_id, None)
                self.busy -= 1
            raise
        if self.error is not None and self._runs.pop(run_id, None) is not None:
            on_exit(None, None, True)
        return run_id

    def kill(self, run_id: int) -> None:
        if run_id in self._runs:
            self.send({"op": "kill", "id": run_id})

    def spawn(self, result_fd: int, submission_fd: int, workdir: str | None,
              cache: str | None, tasks_fd: int | None = None) -> WarmProcess:
        """Fork a worker with its own stdin, stdout and stderr pipes, ``result_fd`` as its result
        channel and the submission read from ``submission_fd``; with ``tasks_fd`` (the
        ``cgroup.procs`` of a ``judge.run.tasks.TaskGroup``) it joins that group before it forks."""
        pipes = [os.pipe() for _ in range(3)]
        theirs = [pipes[0][0], pipes[1][1], pipes[2][1], result_fd, submission_fd]
        theirs += [] if tasks_fd is None else [tasks_fd]
        child = WarmProcess(self, os.fdopen(pipes[0][1], "wb"), os.fdopen(pipes[1][0], "rb"),
                            os.fdopen(pipes[2][0], "rb"))
        try:
            child.id = self.forward(theirs, workdir, cache, child._finish)
        except ServerError:
            for f in (child.stdin, child.stdout, child.stderr):
                f.close()
            raise
        finally:
            for fd in theirs[:3]:
                os.close(fd)
        return child

    @property
    def alive(self) -> bool:
        return self.error is None

    def close(self, wait: bool = True) -> None:
        try:
            self._sock.close()
        except OSError:
            pass


class WarmServer(Connection):
    """A fork server this process starts (inside bubblewrap in ``bwrap`` mode) and owns; it keeps
    workers forked ahead of their runs (``judge.worker.ahead``) unless ``ahead`` is false or
    $JUDGE_WARM_AHEAD is off."""

    def __init__(self, mode: str, python: str, cache_dir: Path | None, ahead: bool = True):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        super().__init__(ours)
        self.mode = mode
        try:
            argv, cwd, env = server_command.command(mode, python, cache_dir, theirs.fileno())
            self._proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE, pass_fds=(theirs.fileno(),),
                                          cwd=cwd, env=env, start_new_session=True)
        finally:
            theirs.close()
        self._stderr = bytearray()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.send({"op": "config", "isolate": mode == "bwrap", "origins": list(imports.CHECKED),
                   "seccomp": seccomp.encoded(mode == "bwrap"), "ahead": ahead and server_command.ahead(),
                   "workdir": sandboxing.WORKDIR, "tmpfs_bytes": sandboxing.TMPFS_BYTES})
        self.start_reading()

    def _drain_stderr(self) -> None:
        while chunk := self._proc.stderr.read1(65536):
            if len(self._stderr) < 65536:
                self._stderr += chunk

    def _why_stopped(self) -> str:
        try:
            code = self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        lines = self._stderr.decode(errors="replace").strip().splitlines()
        return f"the warm worker server stopped (status {code})" + (f": {lines[-1]}" if lines else "")

    @property
    def alive(self) -> bool:
        return self.error is None and self._proc.poll() is None

    def close(self, wait: bool = True) -> None:
        super().close()
        try:
            os.killpg(self._proc.pid, 9)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self._proc.wait(timeout=5) if wait else None
        except subprocess.TimeoutExpired:
            pass


_lock = threading.Lock()
#: Servers are started from the main thread or this long-lived one (made when first needed):
#: bubblewrap's --die-with-parent ends the sandbox when the *thread* that started it ends.
_LAUNCHER = None
_servers: dict[tuple, Connection] = {}
_unavailable: dict[tuple, str] = {}
_warned: set[tuple] = set()  # the setups whose unavailability was said
#: A server another judge process relays to this one, by setup (a batch's grading process).
handed: dict[tuple, Connection] = {}


def _start(mode: str, python: str, cache_dir: Path | None, ahead: bool = True) -> WarmServer:
    """A new server, started from a thread that lives as long as this process."""
    global _LAUNCHER
    if threading.current_thread() is threading.main_thread():
        return WarmServer(mode, python, cache_dir, ahead)
    if _LAUNCHER is None:
        from concurrent.futures import ThreadPoolExecutor
        _LAUNCHER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge-warm")
    return _LAUNCHER.submit(WarmServer, mode, python, cache_dir, ahead).result()


def server_for(mode: str, python: str, cache_dir: Path | None, *, discover: bool = True,
               quiet: bool = False, wait: bool = True, ahead: bool = True) -> Connection | None:
    """The server for this setup: a ``judge warm`` process's when one runs for it (unless
    ``discover`` is false), else one this process starts (``ahead``: ``WarmServer``'s). None when
    warm workers are off or cannot run here (the reason printed once; with ``quiet``, by the next
    call without it). Without ``wait``, returned once started (or found), before it is ready."""
    if not enabled():
        return None
    key = (mode, python, str(cache_dir) if cache_dir else None)
    if mode == "none":  # its workers could otherwise reach this process (``unsandboxed``)
        unsandboxed.protect()
    with _lock:
        server = _servers.get(key)
        if server is None or not server.alive:
            if key in _unavailable:
                if not quiet:
                    _warn(key)
                return None
            for other_key, other in list(_servers.items()):
                if len(_servers) >= MAX_SERVERS and other.busy == 0:
                    other.close()
                    del _servers[other_key]
            try:
                server = (handed.pop(key, None) or (connect(mode, python, cache_dir) if discover
                                                    else None) or _start(mode, python, cache_dir, ahead))
                _servers[key] = server
            except (OSError, sandboxing.SandboxError, ServerError) as exc:
                _give_up(key, str(exc), quiet)
                return None
    if not wait:
        return server
    if not server.wait_ready():
        with _lock:
            if _servers.get(key) is server:
                del _servers[key]
                _give_up(key, server.error, quiet)
        server.close()
        return None
    return server


def socket_path(mode: str, python: str, cache_dir: Path | None) -> Path:
    """Where a ``judge warm`` process for this setup listens. The name depends on the judge's
    own code too, so a server left running by an older version is never used."""
    digest = hashlib.sha256(f"{mode}\0{python}\0{cache_dir}\0{imports.roots()}\0".encode())
    for path in sorted((sandboxing.PACKAGE_DIR / "worker").glob("*.py")) + \
            [sandboxing.PACKAGE_DIR / "run" / "sandbox.py", Path(__file__)]:
        digest.update(path.read_bytes())
    return cache.root() / "serve" / f"{digest.hexdigest()[:20]}.sock"


class ServeClient(Connection):
    """A connection to a ``judge warm`` process (``judge.run.serve``), which relays it to its server."""

    def __init__(self, path: Path):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            sock.settimeout(5)
            sock.connect(str(path))
            sock.settimeout(None)
        except OSError:
            sock.close()
            raise
        super().__init__(sock)
        self.start_reading()


def connect(mode: str, python: str, cache_dir: Path | None) -> ServeClient | None:
    """A ready connection to the ``judge warm`` process for this setup, or None."""
    path = socket_path(mode, python, cache_dir)
    if not path.exists():
        return None
    try:
        client = ServeClient(path)
    except OSError:
        return None
    if client.wait_ready(timeout=10):
        return client
    client.close()
    return None


def _give_up(key: tuple, why: str | None, quiet: bool = False) -> None:
    _unavailable[key] = why or "unknown"
    if not quiet:
        _warn(key)


def _warn(key: tuple) -> None:
    """Say once why the server for ``key`` cannot run."""
    if key not in _warned:
        _warned.add(key)
        sandboxing.warn(f"warm workers unavailable ({_unavailable[key]}); starting a fresh worker "
                        f"for every submission instead (same sandbox, slower)")


def close_all(wait: bool = True) -> None:
    """Stop every server this process holds; with ``wait``, reap those it started."""
    with _lock:
        for server in _servers.values():
            server.close(wait)
        _servers.clear()


# At exit, killed and not waited for: the sandbox ends with its parent (--die-with-parent) and
# the server's children with it, whatever their teardown takes after a grade's report.
atexit.register(close_all, wait=False)


def prestart(settings: Settings, use_cache: bool | None = None) -> None:
    """Start the server in the background for the setup the command's runs will ask for
    (``judge.run.settings.Settings``), so that it imports JAX while this process loads a spec or
    warms the compilation cache; unsandboxed, copy the compilation cache for the workers
    meanwhile too (``_snapshot``). Quiet: the run itself reports a sandbox that cannot be used or
    a server that cannot start."""
    def start():
        try:
            server_for(settings.sandbox, settings.python, cache.for_workers(use_cache))
        except Exception:  # noqa: BLE001 - the run that follows starts or reports it
            pass

    tasks.prepare_soon()
    if enabled() and settings.error is None:
        threading.Thread(target=start, daemon=True).start()
    if settings.sandbox == "none":
        threading.Thread(target=_snapshot, args=(use_cache,), daemon=True).start()


def _snapshot(use_cache: bool | None) -> None:
    """Make the copy of the compilation cache that unsandboxed workers read (``cache.snapshot``)
    now, while the server imports JAX, not when the first runs ask for it, all at once, once the
    server is ready: where file operations are slow (gVisor), copying its files held every lane
    of a batch's first wave. Later runs copy only what was added since. Quiet: the runs make or
    report it themselves."""
    try:
        if (folder := cache.for_workers(use_cache)) is not None:
            cache.snapshot(folder)
    except Exception:  # noqa: BLE001 - the first run that needs it makes it
        pass


def prestart_early(option: str | None, use_cache: bool | None = None,
                   default: str = "bwrap", ahead: bool = True) -> None:
    """Start the server that ``--sandbox option`` will most likely ask for, before the command's
    sandbox is probed (``Settings.resolve``), so that probing, parsing and loading the spec
    overlap the server's import of JAX: the bubblewrap server where bwrap is
    installed and ``option`` (else $JUDGE_SANDBOX, else ``default``, the command's) is ``bwrap``
    or ``auto``; the unsandboxed one for ``none``, and for ``auto`` where bwrap is not installed
    (a TPU VM, a container), as the probe will then decide. Nothing for ``bwrap`` where it is
    not installed (the command reports it). Quiet: if the probe then decides otherwise, no run
    asks for this server (it ends with this process); if the server itself cannot start, the
    first run that asks for it says so.

    Started before this returns from the main thread (a thread sharing the interpreter with the
    command's imports would slow a lone grade's critical path), else in the background."""
    try:
        mode = sandboxing.requested_mode(option, default)
    except sandboxing.SandboxError:
        return  # reported by the command's Settings
    installed = shutil.which(sandboxing.BWRAP) is not None
    if not enabled() or (mode == "bwrap" and not installed):
        return
    start_mode = "bwrap" if mode != "none" and installed else "none"

    def start():
        try:
            server_for(start_mode, sys.executable, cache.for_workers(use_cache), quiet=True,
                       wait=False, ahead=ahead)
        except Exception:  # noqa: BLE001 - the run that follows starts or reports it
            pass

    if threading.current_thread() is threading.main_thread():
        start()
    else:
        threading.Thread(target=start, daemon=True).start()
