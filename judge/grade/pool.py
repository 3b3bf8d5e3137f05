"""A batch's grading spread over several judge processes, for a large ``-j``.

One judge process reads every worker's result lines, decides every verdict and renders every
report; past a few lanes that one process (one interpreter lock) is what the lanes wait for.
With ``-j`` of at least ``2 * LANES`` lanes (``lanes_per_process``), ``judge.grade.batch`` hands
its submissions to grading processes instead, each with about ``LANES`` lanes of its own: the
judge's own code, started as ``python -m judge.grade.lanes`` (never a submission's code, which
only ever runs in workers), each grading the entries it is sent exactly as a one-process batch
does (``batch.grade_entry``) and sending each finished record back as one line of plain JSON.
This process keeps everything else: the order (it sends the next entry, longest first, as a lane
frees up), the journal (the one writer), progress and the reports.

**What crosses.** To a grading process, on its stdin, one JSON line of settings (the spec's
path, the class folder, the sandbox and Python, the source gate, the grading basis it must find
too, its lanes) and then one line per entry (``{"entry": {...}}``); end of input: no more work.
Back, on a pipe of its own, one JSON line per message: ``{"ready": true}`` once the spec is
loaded and its basis matches, ``{"error": TEXT}`` when it cannot grade, ``{"record": {...}}``
per finished entry. A line that is not one of these ends that process's share.

**Workers.** A grading process gets its workers from this process's warm server: each has one
end of a socket pair, over which this process relays the fork server's own protocol
(``judge.worker.forkserver``: ``run`` with its descriptors, ``kill``, ``exited``), as a
``judge warm`` process does for its clients. One server imports JAX for the whole batch. With
warm workers off, or none able to start, the grading processes start fresh workers themselves.

**A process that dies** (killed, out of memory) loses nothing: each entry it had been sent and
not answered gets an ``IE`` record saying so (a resume grades it again), the rest of the class
goes to the other processes, and a batch left with none records the remaining entries the same
way. Ctrl-C stops the grading processes (they run in sessions of their own, so the terminal's
signal reaches only this one); whatever was recorded stays in the journal.
"""

from __future__ import annotations

import dataclasses
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from judge.errors import JudgeError
from judge.run import cache, relay, warm
from judge.run.sandbox import PACKAGE_PARENT

#: Lanes per grading process by default: none, every lane in the batch's own process. On a
#: 13-core TPU VM, grading processes of four lanes graded a class in the same time as one
#: process (docs/performance.md), so they are used only where $JUDGE_BATCH_LANES asks.
LANES = 0
#: A result line longer than this from a grading process is refused (a record is a few KB).
MAX_LINE = 64 * 1024 * 1024

#: CPU seconds of the last pool's grading processes and of the warm workers relayed for them
#: (``benchmarks/``: what this process's own usage does not include).
last_usage = {"processes_cpu_s": 0.0, "workers_cpu_s": 0.0}


def lanes_per_process() -> int:
    """``$JUDGE_BATCH_LANES`` (0: every lane in this process), else ``LANES``."""
    text = os.environ.get("JUDGE_BATCH_LANES", "").strip()
    if not text:
        return LANES
    try:
        value = int(text)
    except ValueError:
        raise JudgeError(f"$JUDGE_BATCH_LANES={text!r}: not a whole number (lanes per grading "
                         f"process; 0 grades every lane in the batch's own process)") from None
    if value < 0:
        raise JudgeError(f"$JUDGE_BATCH_LANES={text!r}: must be 0 or more")
    return value


def split(jobs: int, per: int | None = None) -> list[int]:
    """The lanes of each grading process for ``-j jobs``: [] (grade here) below two processes'
    worth, else about ``per`` lanes each, as even as they divide."""
    per = lanes_per_process() if per is None else per
    if per <= 0 or jobs < 2 * per:
        return []
    count = -(-jobs // per)
    return [jobs // count + (i < jobs % count) for i in range(count)]


class _Process:
    """One grading process, seen from here."""

    def __init__(self, index: int, lanes: int, relay_server):
        self.index, self.lanes = index, lanes
        self.retired = False  # let go before it was given anything
        self.out: set[str] = set()  # keys sent and not yet answered
        self.ready = False
        self.error: str | None = None
        read_fd, write_fd = os.pipe()
        pass_fds = [write_fd]
        ours = theirs = None
        if relay_server is not None:
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            pass_fds.append(theirs.fileno())
        env = dict(os.environ)
        if not _installed():  # a checkout: the same judge, whatever the folder it runs in
            env["PYTHONPATH"] = os.pathsep.join(
                [str(PACKAGE_PARENT), *filter(None, [env.get("PYTHONPATH")])])
        argv = [sys.executable, "-m", "judge.grade.lanes", "--records-fd", str(write_fd)]
        if theirs is not None:
            argv += ["--warm-fd", str(theirs.fileno())]
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=sys.stderr.fileno()
                                         if _has_fd(sys.stderr) else subprocess.DEVNULL,
                                         pass_fds=pass_fds, start_new_session=True, env=env)
        finally:
            os.close(write_fd)
            if theirs is not None:
                theirs.close()
        self.records = os.fdopen(read_fd, "rb")
        self._stdin_lock = threading.Lock()
        if ours is not None:
            threading.Thread(target=_relay, args=(ours, relay_server), daemon=True).start()

    def send(self, message: dict | None) -> bool:
        """One line to the process's stdin (None: no more); False when it is gone."""
        with self._stdin_lock:
            try:
                if message is None:
                    self.proc.stdin.close()
                else:
                    self.proc.stdin.write(json.dumps(message).encode() + b"\n")
                    self.proc.stdin.flush()
                return True
            except (OSError, ValueError):
                return False

    def stop(self) -> None:
        """No more work, and the process killed with everything in its session."""
        self.send(None)
        if self.proc.returncode is None:
            proc_kill(self.proc)

    def ended(self) -> str:
        """How the process ended, in words."""
        try:
            code = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return "stopped answering"
        return f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"


def _installed() -> bool:
    """Whether this judge is an installed package (in a site folder, which a fresh Python
    searches anyway, after its standard library, and must not search first)."""
    import site

    folders = [*site.getsitepackages(), site.getusersitepackages()]
    return any(Path(folder).resolve() == Path(PACKAGE_PARENT).resolve() for folder in folders)


def _has_fd(stream) -> bool:
    try:
        stream.fileno()
        return True
    except (AttributeError, OSError, ValueError):
        return False


def _relay(client: socket.socket, server) -> None:
    """This process's server relayed to one grading process (``judge.run.relay``): ``server()``
    waits for it, and gives it again (started anew if it stopped) for each run."""
    def counted(cpu_s: float) -> None:
        last_usage["workers_cpu_s"] += cpu_s

    relay.relay(client, server, counted, "warm workers are not available to this batch")


class Pool:
    """Grading processes for a batch, started at once: one per item of ``lanes`` (``split``),
    with that many lanes, getting their workers under ``settings``
    (``judge.run.settings.Settings``); ``grade`` hands them the class."""

    def __init__(self, settings, lanes: list[int]):
        self.lanes = lanes
        cache_dir = cache.for_workers()
        self._key = [settings.sandbox, settings.python, str(cache_dir) if cache_dir else None]
        self._server = None
        self._server_ready = threading.Event()
        self._messages: queue.SimpleQueue = queue.SimpleQueue()
        self.processes: list[_Process] = []
        last_usage.update(processes_cpu_s=0.0, workers_cpu_s=0.0)
        relay = None
        if warm.enabled():
            def find_server():
                try:
                    self._server = warm.server_for(settings.sandbox, settings.python, cache_dir)
                finally:
                    self._server_ready.set()

            threading.Thread(target=find_server, daemon=True).start()
            relay = self._wait_server
        try:
            for index, count in enumerate(lanes):
                self.processes.append(_Process(index, count, relay))
                threading.Thread(target=self._read, args=(self.processes[-1],),
                                 daemon=True).start()
        except BaseException:
            self.close()
            raise

    def _snapshot(self) -> str | None:
        """Unsandboxed, the copy of the compilation cache this process made for its workers
        (``cache.snapshot``, begun by ``warm.prestart``), for the grading processes to share:
        one copy for the batch (where file operations are slow, a copy each was most of a
        grading process's start)."""
        cache_dir = self._key[2]
        if self._key[0] != "none" or cache_dir is None:
            return None
        try:
            return str(cache.snapshot(Path(cache_dir)))
        except OSError:
            return None  # each process makes its own

    def _wait_server(self):
        """The batch's warm server once it is ready (None: there is none); later, the one
        running then (``warm.server_for``: started again if it stopped)."""
        self._server_ready.wait()
        if self._server is None or self._server.alive:
            return self._server
        return warm.server_for(self._key[0], self._key[1],
                               Path(self._key[2]) if self._key[2] else None)

    def grade(self, problem, folder: Path, gate_on: bool, basis: str, todo: list, lost):
        """Yield a record for every entry of ``todo`` (``batch.Entry``) of ``problem``'s class
        in ``folder``, graded with the source gate ``gate_on`` on the grading ``basis``
        (``journal.basis``, which each process must find too), in the order they finish; each
        is sent, in ``todo``'s order, to the first process with a free lane (processes a class
        this small would leave idle are let go at once). ``lost(entry, why)`` makes the record
        of an entry whose process ended before answering for it."""
        settings = {"spec": str(Path(problem.path).resolve()), "folder": str(Path(folder).resolve()),
                    "sandbox": self._key[0], "python": self._key[1], "gate": gate_on,
                    "basis": basis, "warm_key": self._key if warm.enabled() else None}
        for process in self.processes:
            if sum(self.lanes[:process.index]) >= len(todo):
                process.retired = True
                process.send(None)
            else:
                process.send({**settings, "lanes": process.lanes})
        shared = self._snapshot()  # while they load the problem
        for process in self.processes:
            if shared is not None and not process.retired:
                process.send({"snapshot": shared})
        by_key = {entry.key: entry for entry in todo}
        waiting = list(reversed(todo))  # popped from the end: todo's order
        alive = {p.index for p in self.processes if not p.retired}
        remaining = len(todo)
        while remaining:
            for index in sorted(alive):
                process = self.processes[index]
                while process.ready and waiting and len(process.out) < process.lanes:
                    entry = waiting.pop()
                    process.out.add(entry.key)
                    if not process.send({"entry": dataclasses.asdict(entry)}):
                        break  # its end is reported by its reader
            if not alive:
                why = "no grading process is left to grade it"
                while waiting:
                    remaining -= 1
                    yield lost(waiting.pop(), why)
                break
            index, message = self._messages.get()
            process = self.processes[index]
            if process.retired:
                continue
            if message is None:  # the process ended
                alive.discard(index)
                why = process.error or f"the judge process grading it {process.ended()}"
                if not process.ready and not alive and not process.out:
                    raise JudgeError(f"judge batch: a grading process could not start: {why}")
                for key in sorted(process.out):
                    remaining -= 1
                    yield lost(by_key[key], why)
                process.out.clear()
            elif "ready" in message:
                process.ready = True
            elif "record" in message:
                record = message["record"]
                key = record.get("key") if isinstance(record, dict) else None
                if key in process.out:
                    process.out.discard(key)
                    remaining -= 1
                    yield record

    def _read(self, process: _Process) -> None:
        """Each message of ``process`` onto the queue; then None, once it ends or says
        something that is not one."""
        try:
            for line in process.records:
                if len(line) > MAX_LINE:
                    process.error = "its result line was too long"
                    break
                try:
                    message = json.loads(line)
                except ValueError:
                    process.error = "it sent a line that is not JSON"
                    break
                if not isinstance(message, dict) or not ({"ready", "record", "error"} & set(message)):
                    process.error = "it sent a message the batch does not know"
                    break
                if "error" in message:
                    process.error = str(message["error"])[:500]
                    break
                self._messages.put((process.index, message))
            else:
                self._messages.put((process.index, None))  # the end of its output: it ended
                return
        except (OSError, ValueError):
            pass
        process.stop()  # it broke the protocol: nothing more it says is read
        self._messages.put((process.index, None))

    def close(self) -> None:
        """Let every grading process end (each has nothing left to grade), count their CPU, and
        stop any that does not end within a few seconds."""
        for process in self.processes:
            process.send(None)
        for process in self.processes:
            usage = _reap(process.proc, 10.0)
            if usage is not None:
                last_usage["processes_cpu_s"] += usage.ru_utime + usage.ru_stime
            process.records.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if exc[0] is not None:  # interrupted, or a failure: nothing more is graded
            for process in self.processes:
                process.stop()
        self.close()
        return False


def _reap(proc: subprocess.Popen, timeout: float):
    """Wait up to ``timeout`` seconds for ``proc`` to end, then kill it; its resource usage, or
    None when it was reaped already."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        except ChildProcessError:
            return None
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return usage
        if time.monotonic() > deadline:
            proc_kill(proc)
            deadline = float("inf")
        time.sleep(0.01)


def proc_kill(proc: subprocess.Popen) -> None:
    """Kill ``proc``'s whole session (it started one of its own)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
