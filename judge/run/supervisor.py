"""Judge side of the process split: start a worker, feed it case inputs, collect its messages.

The judge process never imports a submission. The worker (``judge.worker.main``) is forked
from a warm server that has imported JAX already (``judge.run.warm``), or started in a fresh Python
(``-I``: no user site, no PYTHONPATH; the folders the judge found JAX and NumPy in are put on
its path by ``judge.run.imports``); either way with a rebuilt environment, its own session
(so the whole process tree can be killed) and a private working directory holding a copy of the
submission; under ``--sandbox bwrap`` (``judge.run.sandbox``) that is inside bubblewrap, and
without it a fresh worker first locks itself down as far as needs no privilege
(``judge.worker.fresh``, ``judge.run.unsandboxed.lock_down_args``). Where a
pids cgroup can be made, the worker runs in one of its own that bounds its tasks (processes and
threads; ``judge.run.tasks.bound_tasks``).

Results arrive as JSON lines on a dedicated pipe, each carrying the run's nonce, and are decoded
once, by ``judge.run.collect``, into typed frozen reports (``judge.run.boundary``). They must come in order: ``ready``,
``loaded``, then one ``case`` for each case sent, in the order sent, each once, then ``done``
(or a ``halt`` at any point); all of them together within ``protocol.MAX_CHANNEL_BYTES``.
Everything the worker reads after its request (the hidden cases, the answers to the programs it
asks about: ``judge.run.asked``) is written by one thread, in order, so the collector never waits
on a worker that does not read. The
submission's stdout and stderr go to two other pipes that are drained into bounded buffers,
never parsed, and end the run (OLE) once together they pass the output limit. Deadlines are
kept here, by the clock of this process: start-up, each case from when it became due, and the
whole run (``limits.wall_s``).
"""

from __future__ import annotations

import contextlib
import os
import queue
import secrets
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from judge.run import boundary, cache, collect, imports, settings as run_settings, warm
from judge.run import sandbox as sandboxing
from judge.run import seccomp
from judge.run import tasks as tasks_bound
from judge.run import unsandboxed
from judge.run.boundary import CaseReport, Halt, Loaded, Ready
from judge.problem.model import DEFAULT_LIMITS
from judge.worker import protocol

PACKAGE_PARENT = str(Path(__file__).resolve().parents[2])
STREAM_CAP = 64 * 1024


@dataclass
class WorkerRun:
    """Everything observed about one worker run: typed reports (``judge.run.boundary``) and what
    this process measured."""

    ready: Ready | None = None
    loaded: Loaded | None = None
    cases: dict[int, CaseReport] = field(default_factory=dict)
    case_times: dict[int, float] = field(default_factory=dict)  # measured here, from when due
    done: bool = False
    channel_closed: bool = False       # the worker closed the result channel without "done"
    lingered: bool = False             # ... and had to be killed because it did not exit
    timed_out: bool = False
    timeout_phase: str | None = None   # "startup", "case" or "run" (limits.wall_s)
    protocol_error: str | None = None
    returncode: int | None = None
    stdout: str = ""                   # escaped (boundary.escape)
    stderr: str = ""
    wall_s: float = 0.0
    sandbox: str = "none"              # "bwrap" or "none": how the worker was run
    limits: dict = field(default_factory=lambda: dict(DEFAULT_LIMITS))
    halt: Halt | None = None           # if the worker stopped early
    tampered: str | None = None        # why the result channel is not trusted, if it is not
    output_exceeded: bool = False      # stdout + stderr passed the output limit (run killed)
    signal: int | None = None          # the signal that ended the worker, if one did
    stopped: bool = False              # the judge itself stopped the worker before it ended
    cpu_s: float | None = None         # CPU time of the whole worker process tree
    task_bound: str | None = None      # how its tasks were bounded: "cgroup", "rlimit" or None
    tasks_exceeded_at: int | None = None  # cases reported before a refused task was first seen
    sent: list[int] = field(default_factory=list)  # case indices sent to the worker, in order
    total: int = 0                     # cases in the request (some may not be sent yet)
    expected: boundary.Expected = field(default_factory=boundary.Expected)
    channel_bytes: int = 0             # bytes read from the result channel
    nonce: str = field(default="", repr=False)
    #: with ``run_worker(record=True)``: every result line the collector accepted, in order
    #: (what ``judge.grade.result_cache`` stores, to replay through the same decoding)
    accepted: list[bytes] | None = field(default=None, repr=False)
    #: with ``report_ops`` in the request: the operations the worker compiled for itself
    #: (``judge.run.shared_compile``)
    ops: tuple = field(default=(), repr=False)
    #: the judge's answer to the program of a case sent with ``decide`` (index, ``Program``,
    #: ``Trace``, the run's reports so far) -> refused, so not evaluated (``judge.run.asked``);
    #: None: every one evaluated
    decide: object = field(default=None, repr=False)
    asked: dict[int, bool] = field(default_factory=dict)   # index asked about -> refused
    #: the programs the judge refused, by the key of the cases that run them: (program, trace)
    refused: dict = field(default_factory=dict, repr=False)
    _last: float = field(default=0.0, repr=False)  # when the current phase or case began


class _OutputBudget:
    """Bytes the worker may write to stdout and stderr together; ``on_exceed`` runs once when
    they are spent."""

    def __init__(self, limit: int, on_exceed):
        self.limit, self.on_exceed = limit, on_exceed
        self.total = 0
        self._lock = threading.Lock()
        self._fired = False

    def spend(self, n: int) -> None:
        with self._lock:
            self.total += n
            fire = self.total > self.limit and not self._fired
            self._fired = self._fired or fire
        if fire:
            self.on_exceed()


class _Drain(threading.Thread):
    """Reads a stream to the end, keeping the first ``cap`` bytes."""

    def __init__(self, stream, cap: int = STREAM_CAP, budget: _OutputBudget | None = None):
        super().__init__(daemon=True)
        self.stream, self.cap, self.budget = stream, cap, budget
        self.kept = bytearray()
        self.total = 0
        self.start()

    def run(self):
        try:
            while chunk := self.stream.read1(65536) if hasattr(self.stream, "read1") \
                    else self.stream.read(65536):
                self.total += len(chunk)
                room = self.cap - len(self.kept)
                if room > 0:
                    self.kept += chunk[:room]
                if self.budget is not None:
                    self.budget.spend(len(chunk))
        except (OSError, ValueError):
            pass

    def text(self) -> str:
        out = self.kept.decode("utf-8", errors="replace")
        if self.total > len(self.kept):
            out += f"\n[... {self.total - len(self.kept)} more bytes not kept]"
        return out


def _kill_tree(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_worker(request: dict, *, startup_timeout: float, case_timeout: float,
               sandbox: run_settings.Settings | str | None = None,
               limits: dict | None = None, cache_dir: Path | None = None,
               cache_writable: bool = False, record: bool = False, decide=None) -> WorkerRun:
    """Run one worker on ``request`` (see ``protocol``) and return what it reported.

    ``sandbox`` is the command's ``judge.run.settings.Settings`` (a ``--sandbox`` value is resolved
    here); ``limits`` is a problem's ``limits`` (defaults: ``model.DEFAULT_LIMITS``).
    ``cache_dir`` is the judge's XLA compilation cache (``judge.run.cache``): mounted read-only under
    bwrap, else copied into the worker's private folder, so the worker can use it but not change
    it. Only a trusted run (the reference warming the cache) gets it with ``cache_writable``.
    The worker is forked from this setup's warm server (``judge.run.warm``) when there is one, else
    started as a fresh Python; trusted runs always get a fresh one.
    With ``record``, the run keeps every result line the collector accepted (``accepted``).
    ``decide(index, program, trace, reported) -> bool``: the judge's rules on the program a case
    sent with ``decide`` is about to run (``reported``: the run's case reports so far); true:
    refused, so that key's ``decide`` cases are not evaluated (``judge.run.asked``). Without it
    every such case is evaluated.
    Raises ``sandbox.SandboxError`` if bwrap is required and cannot start, and
    ``WorkerImportError`` if the worker's Python would not import the judge's JAX and NumPy
    (``judge.run.imports``).
    """
    # Trusted code writing the cache runs as the judge's own user, outside the sandbox.
    settings = run_settings.Settings() if cache_writable else run_settings.of(sandbox).check()
    mode, python = settings.sandbox, settings.python
    started = time.monotonic()
    server = None if cache_writable else warm.server_for(mode, python, cache_dir)
    if mode == "none":
        unsandboxed.before_run(server)
    if server is None or not imports.agrees(server.origins):
        imports.check(python)  # a fresh worker, or a server that did not say the judge's JAX
    run = WorkerRun(sandbox=mode, limits={**DEFAULT_LIMITS, **(limits or {})},
                    nonce=secrets.token_hex(16), expected=boundary.Expected.of(request),
                    accepted=[] if record else None, decide=decide)
    original = Path(request["submission"])
    with contextlib.ExitStack() as stack:
        tasks, task_rlimits = tasks_bound.bound_tasks(int(run.limits["tasks"]), mode)
        if tasks is not None:
            stack.callback(tasks.close)  # last: kills whatever is left in the group
        run.task_bound = "cgroup" if tasks is not None else "rlimit" if task_rlimits else None
        read_fd, write_fd = os.pipe()
        stack.callback(os.close, read_fd)
        child_fds = [write_fd]  # closed here once the worker has started (or failed to)
        try:
            if mode == "bwrap":
                workdir = sandboxing.WORKDIR
            else:
                workdir = stack.enter_context(tempfile.TemporaryDirectory(prefix="judge-worker-"))
            cache_in_worker = _cache_in_worker(mode, cache_dir, cache_writable, workdir)
            request = {**request, "submission": f"{workdir}/submission.py", "nonce": run.nonce,
                       "rlimits": {**sandboxing.rlimits(run.limits), **task_rlimits},
                       "memory_bytes": sandboxing.memory_bytes(run.limits)}
            if server is not None:
                child_fds.append(os.open(original, os.O_RDONLY | os.O_CLOEXEC))
                proc = server.spawn(write_fd, child_fds[1], None if mode == "bwrap" else workdir,
                                    cache_in_worker, tasks.procs_fd if tasks else None)
            else:
                proc = _start_fresh(mode, python, original, workdir, cache_dir, cache_in_worker,
                                    write_fd, child_fds, tasks)
        except warm.ServerError as exc:
            run.protocol_error = str(exc)
            run.wall_s = time.monotonic() - started
            return run
        finally:
            for fd in child_fds:
                os.close(fd)
        run_deadline = time.monotonic() + float(run.limits["wall_s"])

        def output_exceeded():
            run.output_exceeded = run.stopped = True
            proc.kill()

        budget = _OutputBudget(int(run.limits["output_kb"]) * 1024, output_exceeded)
        drains = [_Drain(proc.stdout, budget=budget), _Drain(proc.stderr, budget=budget)]
        first, rest = _split_request(request)
        run.sent = [c["index"] for c in first["cases"]]
        run.total = len(request["cases"])
        feed = _Feed(proc.stdin)
        feed.put(protocol.dumps(first).encode())
        answering = bool(run.expected.decide)  # stdin stays open for the answers
        if rest is None and not answering:
            feed.put(None)
        answered = 0

        def on_read(first):
            """A task the kernel refused is noted against the case that was running (the
            first reported in what was just read: ``collect.collect``)."""
            if tasks is not None and run.tasks_exceeded_at is None and first is not None \
                    and tasks.exceeded():
                run.tasks_exceeded_at = first

        def on_case():
            """Hidden cases go to the worker only once every public case has been reported, so
            nothing a submission prints or raises while a public case runs (which the report
            shows) can contain hidden inputs."""
            nonlocal rest, answered
            if rest is not None and len(run.cases) == len(run.sent):
                data, rest = protocol.dumps(rest).encode(), None
                run.sent.extend(c["index"] for c in request["cases"][len(run.sent):])
                feed.put(data)
                if not answering:
                    feed.put(None)
            for index, refused in list(run.asked.items())[answered:]:  # the rules' answers
                feed.put(protocol.dumps({"index": index, "evaluate": not refused}).encode())
                answered += 1

        try:
            on_case()
            collect.collect(run, read_fd, started, startup_timeout, case_timeout, on_case, run_deadline,
                            on_read)
        finally:
            # A worker that closed the channel is let exit on its own, so its exit status is
            # its own and not the judge's kill; one still running is stopped.
            ending = run.done or run.channel_closed
            if not ending:
                run.stopped = True
                proc.kill()
            try:
                run.cpu_s = proc.wait(timeout=5 if ending else 2)
            except subprocess.TimeoutExpired:
                run.lingered = run.channel_closed and not run.done
                run.stopped = True
                proc.kill()
                try:
                    run.cpu_s = proc.wait(timeout=30)
                except subprocess.TimeoutExpired:  # a warm server that does not answer
                    run.protocol_error = run.protocol_error or "the worker could not be stopped"
            proc.kill()  # anything the submission left running in its session
            feed.put(None)
            if tasks is not None and run.tasks_exceeded_at is None and tasks.exceeded():
                run.tasks_exceeded_at = len(run.cases)
            for d in drains:
                d.join(timeout=2)
            run.stdout, run.stderr = (boundary.escape(d.text(), multiline=True) for d in drains)
    run.returncode, run.signal = proc.returncode, proc.signal
    if proc.lost and not run.done and not run.protocol_error:
        run.protocol_error = "the warm worker server stopped while this worker ran"
    run.wall_s = time.monotonic() - started
    return run


def _cache_in_worker(mode: str, cache_dir: Path | None, writable: bool, workdir: str) -> str | None:
    """Where the worker finds the compilation cache: the read-only mount under bwrap, the cache
    itself for a trusted run that fills it, else this process's read-only copy
    (``cache.snapshot``)."""
    if not cache_dir:
        return None
    if mode == "bwrap":
        return sandboxing.CACHE_MOUNT
    if writable:
        return str(cache_dir)
    return str(cache.snapshot(cache_dir))


class _FreshProcess:
    """A worker started as a new Python process (no warm server); the same surface as
    ``warm.WarmProcess``."""

    lost = False  # only a warm server can go away before reporting its worker's end

    def __init__(self, popen: subprocess.Popen, under_bwrap: bool):
        self.popen, self.under_bwrap = popen, under_bwrap
        self.stdin, self.stdout, self.stderr = popen.stdin, popen.stdout, popen.stderr

    @property
    def returncode(self):
        return self.popen.returncode

    @property
    def signal(self) -> int | None:
        """The signal that ended the worker, if one did."""
        code = self.popen.returncode
        if code is not None and code < 0:
            return -code
        if self.under_bwrap and code is not None and 128 < code < 128 + 65:
            return code - 128  # bwrap exits with 128 + the signal that ended the worker
        return None

    def kill(self) -> None:
        _kill_tree(self.popen)

    def wait(self, timeout: float | None = None) -> float | None:
        usage = _wait(self.popen, timeout)
        return None if usage is None else usage.ru_utime + usage.ru_stime


def _start_fresh(mode: str, python: str, original: Path, workdir: str, cache_dir: Path | None,
                 cache_in_worker: str | None, write_fd: int, child_fds: list[int],
                 tasks: "tasks_bound.TaskGroup | None" = None) -> _FreshProcess:
    if mode == "bwrap":
        child_fds.append(os.open(original, os.O_RDONLY | os.O_CLOEXEC))
        child_fds.append(seccomp.seccomp_fd())
        worker = ["-I", "-B", "-c", imports.bootstrap(sandboxing.LIBDIR, "judge.worker.main", "main"),
                  "--result-fd", str(write_fd)]
        argv = sandboxing.bwrap_argv(python, worker, submission_fd=child_fds[1],
                                     seccomp_fd=child_fds[2], hide=[original.parent],
                                     read_only=[(str(cache_dir), sandboxing.CACHE_MOUNT)] if cache_dir else [])
        cwd = "/"
    else:
        shutil.copyfile(original, os.path.join(workdir, "submission.py"))
        argv = [python, "-I", "-B", "-c", imports.bootstrap(PACKAGE_PARENT, "judge.worker.fresh", "run"),
                *unsandboxed.lock_down_args(python, PACKAGE_PARENT), "--result-fd", str(write_fd)]
        cwd = workdir
    if tasks is not None:
        argv = tasks.join_argv(argv)  # the first process joins the group; the rest inherit it
    return _FreshProcess(subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        pass_fds=tuple(child_fds), cwd=cwd, env=sandboxing.worker_env(
            workdir, cache_in_worker, cache.JAX_SETTINGS if cache_in_worker else None),
        start_new_session=True), under_bwrap=mode == "bwrap")


def _wait(proc: subprocess.Popen, timeout: float | None = None):
    """Reap ``proc`` (setting its returncode) and return its rusage, which includes the CPU time
    of every descendant it reaped; None if it had been reaped already."""
    deadline = None if timeout is None else time.monotonic() + timeout
    delay = 0.001
    while True:
        try:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG if deadline is not None else 0)
        except ChildProcessError:
            proc.wait()
            return None
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return usage
        if time.monotonic() >= deadline:
            raise subprocess.TimeoutExpired(proc.args, timeout)
        time.sleep(delay)
        delay = min(delay * 2, 0.02)


def _split_request(request: dict) -> tuple[dict, dict | None]:
    """The request's first part (everything, with only the leading ``public_cases`` cases) and
    the rest of the cases as a second message, or None when there is nothing to hold back."""
    public = int(request.get("public_cases") or 0)
    cases = request["cases"]
    if not 0 < public < len(cases):
        return {**request, "more_cases": False}, None
    return {**request, "cases": cases[:public], "more_cases": True}, {"cases": cases[public:]}


class _Feed:
    """The worker's stdin, written by a thread of its own in the order given (``put``; None
    closes it), so that no write can hold up the collector: a worker that does not read blocks
    only this thread, which ends when the worker does."""

    def __init__(self, stream):
        self.stream, self._items = stream, queue.SimpleQueue()
        threading.Thread(target=self._write, daemon=True).start()

    def put(self, data: bytes | None) -> None:
        self._items.put(data)

    def _write(self) -> None:
        try:
            while (data := self._items.get()) is not None:
                self.stream.write(data)
                self.stream.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass
        try:
            self.stream.close()
        except (BrokenPipeError, OSError, ValueError):
            pass
