"""Children forked ahead, server side: the fork server (``forkserver``) keeps workers forked
before their runs come, each already isolated and with JAX's CPU backend created
(``child.spare``), so that a run's worker starts from there rather than from the fork.

How many: as many as runs have been in flight at once since the server was last idle, at
least one and at most the server's cores; once no run has been in flight for ``TRIM_S``, the
extra ones are ended. A run takes the oldest (the furthest along); a new one is forked only
while no message waits (``top_up``: a run that has come is never held up by one forked for
later). A child that dies while it waits is replaced; after ``MAX_FAILURES`` that died before
they were ready, none is forked again and runs get children forked for them, as without this.

Handing a run over: the server joins the child's processes (its keeper, and the worker whose
PID the keeper reported) to the run's task group, through the descriptor the judge opened,
before it sends the run's descriptors, so nothing of the run executes outside the group. The
server never waits for a child to say that PID: a run goes to the oldest child that has said it
(the messages waiting are read without blocking), else it gets a child forked for it; a child
that has not said it ``PID_WAIT_S`` after its fork is ended (counted as one that died before
it was ready) when a run next passes it over.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import time

from . import child

#: Seconds without a run in flight after which the children beyond one are ended.
TRIM_S = 2.0
#: Children that died before they were ready, in a row, after which none is forked ahead.
MAX_FAILURES = 3
#: How long after its fork a child forked ahead may take to say its worker's PID.
PID_WAIT_S = 10.0


class Spare:
    """One child forked ahead, seen from the server."""

    def __init__(self, pid: int, sock: socket.socket, isolated: bool):
        self.pid, self.sock = pid, sock
        self.worker = None if isolated else pid  # the process to join to a run's task group
        self.ready = False
        self.forked = time.monotonic()
        self.ready_s: float | None = None  # from the fork to its backend made

    def read(self) -> bool:
        """Take in the messages waiting, never waiting for one; False once the child has gone."""
        while True:
            if not select.select([self.sock], [], [], 0)[0]:
                return True
            try:
                data = self.sock.recv(4096)
            except OSError:
                return False
            if not data:
                return False
            try:
                message = json.loads(data)
            except ValueError:
                continue
            if message.get("op") == "spare" and isinstance(message.get("pid"), int) \
                    and message["pid"] > 0:
                self.worker = message["pid"]
            elif message.get("op") == "ready":
                self.ready = True
                self.ready_s = time.monotonic() - self.forked

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


class Ahead:
    """The server's children forked ahead. ``fork_child(fn)`` forks a child that runs ``fn()``
    (never returning) and gives its PID in the server."""

    def __init__(self, config: dict, fork_child):
        self.config, self._fork = config, fork_child
        self.on = bool(config.get("ahead"))
        self.cap = max(1, os.cpu_count() or 1)
        self.want = 1
        self.spares: list[Spare] = []
        #: children handed a run, by PID: the server's end of their socket stays open until they
        #: end (closed with a message unread, it could fail the child's wait for its run)
        self.handed: dict[int, Spare] = {}
        self.failures = 0
        self.idle_since: float | None = time.monotonic()

    def runs_in_flight(self, count: int) -> None:
        """Told how many runs are in flight now (after one came or ended)."""
        if count:
            self.want = min(self.cap, max(self.want, count))
            self.idle_since = None
        elif self.idle_since is None:
            self.idle_since = time.monotonic()

    def needs_top_up(self) -> bool:
        return self.on and len(self.spares) < self.want

    def top_up(self) -> None:
        """Fork one more child ahead."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            pid = self._fork(lambda: child.spare(self.config, theirs.fileno()))
        finally:
            theirs.close()
        self.spares.append(Spare(pid, ours, bool(self.config["isolate"])))

    def timeout(self) -> float | None:
        """Seconds until ``trim`` has something to do, or None."""
        if len(self.spares) <= 1 or self.idle_since is None:
            return None
        return max(0.0, self.idle_since + TRIM_S - time.monotonic())

    def trim(self) -> None:
        """With no run in flight for ``TRIM_S``: back to one child ahead."""
        if self.idle_since is None or time.monotonic() - self.idle_since < TRIM_S:
            return
        self.want = 1
        while len(self.spares) > 1:
            self._end(self.spares.pop())

    def ended(self, pid: int) -> bool:
        """``pid`` ended: if it was a child waiting ahead, it is forgotten (and, if it had not
        got ready, counted against forking more); whether it was one."""
        if (handed := self.handed.pop(pid, None)) is not None:
            handed.close()
            return False
        for spare in self.spares:
            if spare.pid == pid:
                self.spares.remove(spare)
                spare.read()
                spare.close()
                self._count(spare.ready)
                return True
        return False

    def _count(self, ready: bool) -> None:
        """A child forked ahead has ended, ``ready`` or not."""
        self.failures = 0 if ready else self.failures + 1
        if self.failures >= MAX_FAILURES and self.on:
            self.on = False
            child.report(f"judge warm server: {MAX_FAILURES} workers forked ahead died "
                         f"before they were ready; forking each worker for its run\n")

    def hand(self, message: dict, fds: list[int]) -> int | None:
        """Give the run ``message`` (descriptors ``fds``: stdin, stdout, stderr, result,
        submission, and maybe the run's ``cgroup.procs``) to the oldest child waiting; the PID to
        wait for, or None when none waits or it could not take the run (it is ended; the caller
        forks a child for the run, which joins the task group itself)."""
        spare = self._take(len(fds) > 5)
        if spare is None:
            return None
        try:
            if len(fds) > 5:
                for pid in dict.fromkeys((spare.pid, spare.worker)):  # keeper, then worker
                    os.write(fds[5], str(pid).encode())
            socket.send_fds(spare.sock, [json.dumps(message).encode()], fds[:5])
        except OSError:
            self._end(spare)
            return None
        self.handed[spare.pid] = spare
        return spare.pid

    def _take(self, joins: bool) -> Spare | None:
        """The oldest child waiting that can take a run now, out of the list: where the run
        ``joins`` a task group, one whose worker's PID is known. Never waits; a child that has
        not said its PID within ``PID_WAIT_S`` of its fork is ended on the way."""
        for spare in list(self.spares):
            if joins and spare.worker is None and spare.read() and spare.worker is None:
                if time.monotonic() - spare.forked > PID_WAIT_S:
                    self.spares.remove(spare)
                    self._end(spare)
                    self._count(False)
                continue
            if not joins or spare.worker is not None:
                self.spares.remove(spare)
                return spare
        return None

    def _end(self, spare: Spare) -> None:
        try:
            os.killpg(spare.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        spare.close()

    def stop(self) -> list[int]:
        """End every child waiting (the server is stopping); their PIDs, to reap."""
        ended = [spare.pid for spare in self.spares]
        for spare in self.spares:
            self._end(spare)
        for spare in self.handed.values():
            spare.close()
        self.spares, self.handed = [], {}
        return ended
