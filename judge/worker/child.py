"""What a child of the fork server (``forkserver``) does, from its fork until the worker's
``main`` runs: forked for a run that has come (``keeper``), or forked ahead of any run
(``spare``) and handed the next one.

A child forked for a run gets its run's descriptors at once: it joins the run's task group,
takes its own session, leaves the server's namespaces (``isolate_steps``), then forks the
worker, which drops its privileges (``isolate.lock_down``) and runs ``main``, where JAX's CPU
backend is created. A child forked ahead does every step that does not depend on a run, in the
same order: its session, namespaces and mounts, the worker's fork, privileges dropped, seccomp
filter installed, and then JAX's CPU backend created, so that the backend's threads start
under everything that walls the worker off, as a fresh worker's do. Then it waits on a socket
of its own for its run: the request's descriptors, nothing else. It holds no descriptor of the
server's nor of any other run while it waits (the server joins it to the run's task group
before it hands it the run, ``judge.worker.ahead``), and nothing of a run is in it before that
run is handed over. ``main`` then runs exactly as in a child forked for the run: its clocks,
limits (``limits.apply``: resource limits are the whole process's, threads included) and
memory cap start there.

Without isolation (``--sandbox none``, or a machine that refuses namespaces) a child has no
namespaces to leave and no keeper to fork: it is the worker itself. It still drops its
privileges at the same point, before JAX's backend starts a thread (``lock_down``: no
capability, not dumpable, no new privileges, the seccomp filter), so a submission cannot trace,
read or write the server, a child waiting ahead or another run's worker.

Descriptors of a child forked ahead, while it waits: 0 to 2 are the server's (where a setup
failure is reported), 3 and 4 ``/dev/null`` (held, so that nothing the backend opens takes the
numbers the run's result pipe goes to), 5 its socket. Once its run comes, 0 to 3 are the run's
stdin, stdout, stderr and result pipe, and 4 and 5 are closed.
"""

from __future__ import annotations

import base64
import fcntl
import gc
import json
import os
import resource
import signal
import socket

#: Exit status of a child whose isolation or setup failed (its message is on its stderr).
SETUP_FAILED = 71
MAX_SUBMISSION = 16 * 1024 * 1024
#: A child forked ahead: where its socket is while it waits.
SPARE_FD = 5


def write_submission(fd: int, path: str) -> None:
    data = bytearray()
    while chunk := os.read(fd, 1 << 20):
        data += chunk
        if len(data) > MAX_SUBMISSION:
            raise OSError(27, f"the submission is larger than {MAX_SUBMISSION} bytes")
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644), "wb") as f:
        f.write(data)


def isolate_steps(config: dict, workdir: str) -> None:
    """Leave the server's namespaces: new ones, and fresh mounts over the working directory,
    ``/tmp`` and ``/dev/pts``, ``/proc`` read-only (``isolate``)."""
    from . import isolate

    isolate.new_namespaces()
    isolate.private_tmpfs(workdir, config["tmpfs_bytes"])
    isolate.private_tmpfs("/tmp", config["tmpfs_bytes"], stage=os.path.join(workdir, ".stage"))
    isolate.private_devpts()
    isolate.read_only_proc()


def _own_session() -> None:
    """The first steps of every child: the server's signal handling undone, a session of its
    own (the server kills a run's whole group), death with the server, no core dumps."""
    from . import isolate

    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.setsid()
    isolate.die_with_parent()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _end_as(worker: int) -> int:
    """Wait for the worker and end the same way (the server's ``wait4`` sees its status)."""
    _, status = os.waitpid(worker, 0)
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
    return os.waitstatus_to_exitcode(status)


def report(text: str) -> None:
    """Write ``text`` to descriptor 2 (the server's stderr, or the run's), ignoring a closed one."""
    try:
        os.write(2, text.encode())
    except OSError:
        pass


def keeper(config: dict, message: dict, fds: list[int]) -> None:
    """A child forked for the run ``message``. Never returns."""
    code = SETUP_FAILED
    try:
        _own_session()
        # stdin, stdout, stderr at 0, 1, 2, then the result pipe at 3 and the submission at 4
        # (moved out of the way first: a received descriptor may already be one of 0-4)
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 256) for fd in fds]
        if len(high) > 5:  # the run's task group: join it, so the worker and its threads count
            os.write(high.pop(), b"0")
        for target, fd in enumerate(high):
            os.dup2(fd, target)
        os.closerange(5, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
        workdir = config["workdir"] if config["isolate"] else message["workdir"]
        if config["isolate"]:
            isolate_steps(config, workdir)
        write_submission(4, os.path.join(workdir, "submission.py"))
        os.close(4)
        if not config["isolate"]:  # no namespace to keep: this process is the worker
            worker(config, message, workdir)
        pid = os.fork()
        if pid == 0:
            worker(config, message, workdir)
        for fd in range(4):
            os.close(fd)
        code = _end_as(pid)
    except BaseException as exc:  # noqa: BLE001 - reported on the child's stderr
        report(f"judge worker setup failed: {exc}\n")
    os._exit(code)


def _settle_in(config: dict, workdir: str) -> None:
    """The worker's own steps before ``main``, in its working directory (``workdir``)."""
    os.chdir(workdir)
    os.environ.update(HOME=workdir, TMPDIR=workdir)
    import tempfile

    tempfile.tempdir = None


def _use_cache(message: dict) -> None:
    if message.get("cache"):
        import jax

        jax.config.update("jax_compilation_cache_dir", message["cache"])


def seccomp_filter(config: dict) -> bytes | None:
    """The seccomp filter the judge sent (None where it has none for this machine)."""
    return base64.b64decode(config["seccomp"]) if config.get("seccomp") else None


def lock_down(config: dict) -> None:
    """The worker's privileges dropped (``isolate.lock_down``), as the last step before JAX's
    backend starts any thread: every step when isolated; otherwise those the server found to
    work on this machine (it said which do not, once: ``forkserver``)."""
    from . import isolate

    isolate.lock_down(seccomp_filter(config), () if config["isolate"] else config.get("skip", ()))


def worker(config: dict, message: dict, workdir: str) -> None:
    """The submission's process (PID 1 of its namespace when isolated). Never returns."""
    code = SETUP_FAILED
    try:
        from . import isolate
        from .main import main

        gc.enable()  # the server runs none (``serve``); the worker collects as a fresh one does
        isolate.die_with_parent()
        _settle_in(config, workdir)
        _use_cache(message)
        lock_down(config)
        code = 70
        main(["--result-fd", "3"])  # ends the process itself
    except BaseException as exc:  # noqa: BLE001
        report(f"judge worker failed before the submission ran: {exc}\n")
    os._exit(code)


def spare(config: dict, channel: int) -> None:
    """A child forked ahead, ``channel`` its end of its socket to the server. Never returns.

    Isolated, it is a keeper that tells the server its worker's PID (``{"op": "spare", "pid":
    N}``, as the server numbers it) and then waits for it; else it is the worker itself."""
    code = SETUP_FAILED
    try:
        _own_session()
        high = fcntl.fcntl(channel, fcntl.F_DUPFD, 256)
        limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        os.closerange(3, high)
        os.closerange(high + 1, limit)
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 4)
        os.dup2(high, SPARE_FD)
        os.close(high)
        if null != 3:
            raise OSError(9, f"/dev/null opened at {null}, not 3")
        if config["isolate"]:
            isolate_steps(config, config["workdir"])
            pid = os.fork()
            if pid == 0:
                _spare_worker(config)
            os.write(SPARE_FD, json.dumps({"op": "spare", "pid": pid}).encode())
            for fd in range(SPARE_FD + 1):
                os.close(fd)
            code = _end_as(pid)
        else:
            _spare_worker(config)
    except BaseException as exc:  # noqa: BLE001
        report(f"judge worker setup (ahead of its run) failed: {exc}\n")
    os._exit(code)


def _spare_worker(config: dict) -> None:
    """The worker of a child forked ahead: everything but the run, then the run. Never returns."""
    code = SETUP_FAILED
    try:
        from . import isolate, limits
        from .main import main

        gc.enable()
        isolate.die_with_parent()
        if config["isolate"]:
            _settle_in(config, config["workdir"])
        lock_down(config)
        import jax

        limits.start_runtime(jax)  # the backend and its threads, under the filter
        channel = socket.socket(fileno=SPARE_FD)
        try:  # the server may have handed this child its run already, and closed its end
            channel.send(json.dumps({"op": "ready"}).encode())
        except OSError:
            pass
        data, fds, _, _ = socket.recv_fds(channel, 65536, 8)
        channel.close()  # descriptor 5: the run cannot use it
        if not data:  # the server let this child go
            os._exit(0)
        message = json.loads(data)
        if len(fds) != 5:
            raise OSError(22, f"{len(fds)} descriptors for a run, not 5")
        for target, fd in enumerate(fds[:4]):  # received above 5: 0-5 were all taken
            os.dup2(fd, target)
        workdir = config["workdir"] if config["isolate"] else message["workdir"]
        write_submission(fds[4], os.path.join(workdir, "submission.py"))
        for fd in [*fds, 4]:
            os.close(fd)
        if not config["isolate"]:
            _settle_in(config, workdir)
        _use_cache(message)
        code = 70
        main(["--result-fd", "3"])
    except BaseException as exc:  # noqa: BLE001
        report(f"judge worker failed before the submission ran: {exc}\n")
    os._exit(code)
