"""The warm-worker fork server: imports JAX once, then forks a fresh worker per submission.

Importing JAX takes a fresh worker one to several seconds, most of a small problem's grading
time. The server pays it once: it imports JAX (and the worker) but never computes anything, so
no backend and none of XLA's threads exist yet, and forking is safe. Each forked child then runs
``worker.main`` exactly as a fresh worker would (same request, same result channel, same
messages; see ``protocol``), with JAX's backend created in the child.

Isolation. Under bubblewrap the server runs inside one sandbox (``judge.run.sandbox``) that allows
user namespaces. A child leaves everything it would otherwise share with the server and with
earlier or concurrent children before any of the submission's code runs (``isolate``): new
user, mount, PID, network, IPC and UTS namespaces, fresh size-capped tmpfs mounts over the
working directory and ``/tmp``, no capabilities, not dumpable, and the same seccomp filter a
fresh worker gets. Without bubblewrap (``--sandbox none``) the child gets its own session and
working directory, as a fresh unsandboxed worker does, and still takes the steps that need no
privilege: no capabilities, not dumpable, no new privileges, the seccomp filter
(``child.lock_down``); the server itself is not dumpable and gains no privileges either (it
forks, so the filter is not its own). Those steps are tried once, in a child forked before
JAX is imported; any that fails on this machine is named in ``ready`` (``unconfined``) and left
out of every child, rather than failing every run.

Each isolated child is two processes: a *keeper* that makes the namespaces and mounts, then
forks the *worker* (PID 1 of the new PID namespace) and waits for it; the keeper exits the way
the worker did, so the server's ``wait4`` gives the worker's status and CPU time. Both die with
their parent. Without isolation there is nothing to keep: the child, once it has its session,
descriptors and submission, runs the worker itself (one fork of the server's whole address
space per run rather than two, each tens of milliseconds under gVisor).

Forked ahead. With ``"ahead": true`` in ``config`` the server also keeps children forked before
their runs (``ahead``; what each does, ``child.spare``): isolated, privileges dropped, JAX's CPU
backend made, waiting for a run on a socket of their own. A run goes to the oldest waiting, and
another is forked once no message waits; where none waits, the run gets a child forked for it.

Control channel (an ``AF_UNIX`` ``SOCK_SEQPACKET`` socket, ``--control-fd N``; one JSON object per
message, never pickled)::

    judge -> server  {"op": "config", "isolate": true, "seccomp": BASE64, "workdir": "/sandbox",
                      "tmpfs_bytes": 67108864, "origins": ["jax", "numpy"],
                      "ahead": true}                                            (first message)
    server -> judge  {"op": "ready", "jax": "0.10.2", "origins": {"jax": PATH | null, ...},
                      "unconfined": TEXT (only without isolation, where a step failed)}
                     | {"op": "failed", "error": TEXT}
    judge -> server  {"op": "run", "id": 7, "workdir": PATH | null, "cache": PATH | null}
                     + descriptors [stdin, stdout, stderr, result, submission(, tasks)]
    server -> judge  {"op": "exited", "id": 7, "returncode": -9, "cpu_s": 1.2}   (when it ends)
    judge -> server  {"op": "kill", "id": 7}

``origins`` in ``ready`` answers the modules ``config`` named: where the server imported each
from (the real path of its origin, as ``judge.run.imports`` asks a fresh worker's Python), so
the judge needs no other process to learn where its warm workers' JAX comes from.
``workdir`` is the child's working directory when it is not isolated (the judge made it);
``cache`` is the compilation cache folder the child uses (read-only under bubblewrap); the
optional ``tasks`` descriptor is the ``cgroup.procs`` file of the run's pids cgroup, opened by
the judge: the keeper writes ``0`` to it (joining the group) before it forks the worker; for a
child forked ahead, the server writes its keeper's and its worker's PIDs there before it hands
the run over. The server ends, killing its children, when the judge closes the channel.
"""

from __future__ import annotations

import gc
import json
import os
import selectors
import signal
import socket
import sys
import time

from . import child

#: How long the server waits for a message before it counts itself idle (``collect_when_idle``).
IDLE_S = 0.05


def _send(control: socket.socket, message: dict) -> None:
    control.send(json.dumps(message).encode())


def settle() -> None:
    """Do once here, before any fork, what every child would otherwise do for itself, none of it
    a computation (no backend, no thread: forking stays safe): make the MLIR context its
    lowerings share (``lowering.share_contexts``), with the dialects loaded; a forked child finds
    it as its own thread's (the thread that forks)."""
    from . import jaxapi, lowering

    if lowering.share_contexts():
        jaxapi.mlir_module().make_ir_context()


def _start_self_test(config: dict) -> tuple[int, int]:
    """Fork one child through the isolation steps, in the state every child is forked in (not
    dumpable), or without isolation through the lock-down steps (``isolate.try_lock_down``);
    ``_self_test_answer`` reads how it went. Started before the server imports JAX, so the test
    runs meanwhile: forked from the small process it is then, it is cheaper too (a fork of the
    imported server took it 0.03 to 0.08 s)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_fd)
            from . import isolate

            if config["isolate"]:
                isolate.not_dumpable()
                child.isolate_steps(config, config["workdir"])
                answer = "ok"
            else:
                answer = json.dumps(isolate.try_lock_down(child.seccomp_filter(config)))
            os.write(write_fd, answer.encode())
        except BaseException as exc:  # noqa: BLE001
            os.write(write_fd, str(exc).encode()[:500])
        os._exit(0)
    os.close(write_fd)
    return pid, read_fd


def _self_test_answer(started: tuple[int, int]) -> str:
    """What the child of ``_start_self_test`` wrote: ``ok``, the failed steps (JSON, without
    isolation) or why it failed."""
    pid, read_fd = started
    answer = b""
    while chunk := os.read(read_fd, 4096):
        answer += chunk
    os.close(read_fd)
    os.waitpid(pid, 0)
    return answer.decode(errors="replace") or "the test child died"


def confine(config: dict, answer: str) -> str | None:
    """Without isolation: the server's own steps (not dumpable, no new privileges), and the
    lock-down steps that failed in the test child (``answer``) left out of every child's
    (``config["skip"]``); what does not hold here, in words, or None when everything does."""
    from . import isolate

    try:
        failed = json.loads(answer)
    except ValueError:
        failed = None
    if isinstance(failed, dict):
        config["skip"] = list(failed)
    else:  # the test child did not get to say: no step is known to work
        failed, config["skip"] = {"lock-down": answer[:300]}, list(isolate.STEPS)
    for name, step in (("server dumpable", isolate.not_dumpable),
                       ("server no_new_privs", isolate.no_new_privs)):
        try:
            step()
        except (OSError, AttributeError) as exc:
            failed[name] = str(exc)
    return "; ".join(f"{name}: {why}" for name, why in failed.items()) or None


def load() -> str:
    """Import, once and before any fork, what every child uses (JAX first: the point of the
    server), settle (``settle``), then move what was imported to the oldest generation;
    JAX's version.

    The server runs with the collector off (``serve``), so what it imports stays in the youngest
    generation: a child that turned collection on walked all of it at its first collection,
    writing to every page that holds an object and so copying the server's whole heap (70 ms
    of CPU and 8,000 page faults a run, 2-core VM). In the oldest generation, a child walks it
    only in a full collection, as a fresh worker walks what it imported. It gets there by
    ``gc.freeze()`` then ``gc.unfreeze()``, which move the lists without visiting an object,
    rather than by a collection (0.06 to 0.08 s of CPU, on the way to the first run of a lone
    grade); the import's garbage is collected once the server is idle (``collect_when_idle``).
    It is not left frozen: a frozen object is missing from ``gc.get_objects()``, so a warm child
    would show its submission other objects than a fresh worker does."""
    import warnings

    # The judge's compilation cache is read-only here; a missed entry is simply compiled.
    warnings.filterwarnings("ignore", message="Error writing persistent compilation cache entry")
    import jax

    # loaded once, before any fork, for every child
    from . import case_runner, channel, custody, instrument, isolate, limits, lowering, main  # noqa: F401
    from . import evaluate, program, provenance  # noqa: F401

    lowering.preload()
    settle()
    gc.freeze()
    gc.unfreeze()
    return jax.__version__


def origins(names) -> dict[str, str | None]:
    """Where this process imported each module of ``names`` from (the real path of its origin;
    None for one it cannot find): the question ``judge.run.imports`` asks a fresh Python."""
    import importlib.util

    out = {}
    for name in names if isinstance(names, list) else []:
        if not isinstance(name, str):
            continue
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        out[name] = os.path.realpath(spec.origin) if spec is not None and spec.origin else None
    return out


def collect_when_idle() -> None:
    """Collect the garbage importing JAX left in the server (``load`` moved it to the oldest
    generation uncollected), once nothing has come for ``IDLE_S`` while no child runs or after
    one has ended: before the first run of a server kept waiting (``judge warm``), or between
    the runs of a batch; never beside a lone grade's only worker, whose CPU it would share. The
    children forked later start without it, as they did when ``load`` collected it."""
    gc.collect()


def _fork(run) -> int:
    """Fork a child that runs ``run()`` (which never returns); its PID."""
    pid = os.fork()
    if pid == 0:
        try:
            run()
        finally:
            os._exit(child.SETUP_FAILED)
    return pid


def serve(control: socket.socket) -> None:
    # No collections in the server (it makes few objects after its imports; ``load``).
    gc.disable()
    config = json.loads(control.recv(65536))
    testing = _start_self_test(config)  # runs while JAX is imported
    version = load()

    from . import ahead, isolate

    answer, ready = _self_test_answer(testing), {"op": "ready", "jax": version}
    if config["isolate"]:
        isolate.not_dumpable()
        if answer != "ok":
            _send(control, {"op": "failed", "error": answer})
            return
    elif (unconfined := confine(config, answer)) is not None:
        ready["unconfined"] = unconfined
    _send(control, {**ready, "origins": origins(config.get("origins"))})

    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ)
    selector.register(wake_r, selectors.EVENT_READ)
    children: dict[int, int] = {}  # keeper pid -> run id
    ended = [False]  # whether a run's child has ended yet (``collect_when_idle``)
    spares = ahead.Ahead(config, _fork)  # workers forked ahead of their runs

    def reap() -> None:
        """Collect every ended child: keepers, and workers whose keeper was killed first (the
        server is PID 1 of its sandbox, so they are re-parented to it)."""
        while True:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if not pid:
                break
            if spares.ended(pid):
                continue
            run_id = children.pop(pid, None)
            if run_id is not None:
                ended[0] = True
                _send(control, {"op": "exited", "id": run_id,
                                "returncode": os.waitstatus_to_exitcode(status),
                                "cpu_s": usage.ru_utime + usage.ru_stime})
        spares.runs_in_flight(len(children))

    garbage = True  # what importing left behind, collected once the server is idle
    last = time.monotonic()  # when something last came

    try:
        while True:
            waits = [spares.timeout()]
            if garbage:
                waits.append(max(0.0, last + IDLE_S - time.monotonic()))
            if spares.needs_top_up():
                waits.append(0.0)  # fork one ahead, unless a message is waiting
            waits = [w for w in waits if w is not None]
            events = selector.select(min(waits) if waits else None)
            if events:
                last = time.monotonic()
            for key, _ in events:
                if key.fileobj is wake_r:
                    while True:
                        try:
                            if not os.read(wake_r, 512):
                                break
                        except BlockingIOError:
                            break
                    reap()
                    continue
                data, fds, _, _ = socket.recv_fds(control, 65536, 8)
                if not data:
                    return
                message = json.loads(data)
                if message.get("op") == "run" and len(fds) in (5, 6):
                    pid = spares.hand(message, fds)
                    if pid is None:
                        pid = _fork(lambda: child.keeper(config, message, fds))
                    children[pid] = message["id"]
                    spares.runs_in_flight(len(children))
                elif message.get("op") == "kill":
                    for pid, run_id in list(children.items()):
                        if run_id == message.get("id"):
                            try:
                                os.killpg(pid, signal.SIGKILL)
                            except (ProcessLookupError, PermissionError):
                                pass
                for fd in fds:
                    os.close(fd)
            reap()
            if events:
                continue
            if garbage and time.monotonic() - last >= IDLE_S and (ended[0] or not children):
                collect_when_idle()
                garbage = False
            spares.trim()
            if spares.needs_top_up():
                spares.top_up()
    finally:
        stopped = spares.stop() + list(children)
        for pid in children:
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        _reap_killed(stopped)


def _reap_killed(pids: list[int], timeout: float = 2.0) -> None:
    """Wait (at most ``timeout`` in all) for the children just killed, so none is left a zombie
    while this process lives on."""
    deadline = time.monotonic() + timeout
    left = set(pids)
    while left and time.monotonic() < deadline:
        for pid in list(left):
            try:
                if os.waitpid(pid, os.WNOHANG)[0]:
                    left.discard(pid)
            except ChildProcessError:
                left.discard(pid)
        if left:
            time.sleep(0.01)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2 or argv[0] != "--control-fd":
        sys.stderr.write("usage: forkserver --control-fd N\n")
        os._exit(2)
    control = socket.socket(fileno=int(argv[1]))
    try:
        serve(control)
    except (BrokenPipeError, ConnectionResetError):
        pass
    os._exit(0)


if __name__ == "__main__":
    main()
