"""Workers forked ahead of their runs (``judge.worker.ahead``, ``judge.worker.child.spare``), at
the fork server's own protocol, unsandboxed (the walls under bubblewrap are
``tests/test_warm.py``'s): a child waits with its backend made, holding nothing but its own
socket and using no CPU; the next run goes to it; one that dies is replaced; a server that
stops leaves none behind, not even a zombie; ``"ahead": false`` forks each worker for its run."""

import json
import os
import subprocess
import sys

from tests.helpers import ROOT, pythonpath

SCRIPT = r"""
import json, os, socket, sys, tempfile, threading, time
sys.path.insert(0, {root!r})
from judge.worker import ahead, forkserver
ahead.TRIM_S = 0.5
ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
me, seen = os.getpid(), {{}}


def children():
    '''[(pid, state)] of this process's children, zombies too.'''
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{{entry}}/stat") as f:
                    state, ppid = f.read().rsplit(")", 1)[1].split()[:2]
            except OSError:
                continue
            if int(ppid) == me:
                found.append((int(entry), state))
    return found


def waiting(count, gone=(), timeout=60.0):
    '''The children once ``count`` are running with more than one thread each (backend made),
    none of them one of ``gone`` (killed, maybe not yet reaped).'''
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        running = [pid for pid, state in children() if state != "Z" and pid not in gone]
        try:
            made = [pid for pid in running if len(os.listdir(f"/proc/{{pid}}/task")) > 1]
        except OSError:
            made = []
        if len(running) == count and len(made) == count:
            return sorted(running)
        time.sleep(0.05)
    return sorted(pid for pid, _ in children())


def cpu(pid):
    total = 0
    for tid in os.listdir(f"/proc/{{pid}}/task"):
        with open(f"/proc/{{pid}}/task/{{tid}}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


SOURCE = b'''import json, os
fds = {{}}
for fd in os.listdir("/proc/self/fd"):
    try:
        fds[fd] = os.readlink(f"/proc/self/fd/{{fd}}")
    except OSError:
        pass  # the listing's own descriptor, closed
print(json.dumps({{"pid": os.getpid(), "fds": fds}}))
def f():
    return 0
'''


def run(ident):
    '''One run of a submission that prints its PID and what its descriptors are; (its PID,
    the exited message); those descriptors in ``seen["run_fds"]``.'''
    stdin, stdout, stderr, result, source = (os.pipe() for _ in range(5))
    os.write(source[1], SOURCE)
    os.close(source[1])
    socket.send_fds(ours, [json.dumps({{"op": "run", "id": ident, "workdir": tempfile.mkdtemp(),
                                       "cache": None}}).encode()],
                    [stdin[0], stdout[1], stderr[1], result[1], source[0]])
    for fd in (stdin[0], stdout[1], stderr[1], result[1], source[0]):
        os.close(fd)
    os.write(stdin[1], json.dumps({{"submission": "submission.py", "entry_point": "f",
                                   "cases": [], "nonce": "n"}}).encode() + b"\n")
    os.close(stdin[1])
    pid = None
    with os.fdopen(result[0], "rb") as lines:
        for line in lines:
            message = json.loads(line)
            if message["type"] == "loaded":
                printed = json.loads(message["stdout"])
                pid = printed["pid"]
                seen.setdefault("run_fds", {{}})[ident] = printed["fds"]
    for fd in (stdout[0], stderr[0]):
        os.close(fd)
    return pid, json.loads(ours.recv(65536))


def judge():
    ours.send(json.dumps({{"op": "config", "isolate": False, "seccomp": {seccomp!r},
                          "workdir": "/nonexistent", "tmpfs_bytes": 0, "ahead": {ahead}}}).encode())
    assert json.loads(ours.recv(65536))["op"] == "ready"
    if not {ahead}:
        time.sleep(1.0)
        seen["before"] = children()
        seen["run"] = run(1)[0] is not None
        ours.close()
        return
    first = waiting(1)
    seen["first"] = first
    try:  # a child that is not dumpable shows its descriptors to root alone
        fds = {{int(fd): os.readlink(f"/proc/{{first[0]}}/fd/{{fd}}")
               for fd in os.listdir(f"/proc/{{first[0]}}/fd")}}
    except PermissionError:
        fds = None
    mine = {{os.readlink(f"/proc/self/fd/{{fd}}") for fd in (ours.fileno(), theirs.fileno())}}
    seen["server_sockets"] = sorted(mine)
    if fds is not None:
        seen["fds"] = {{fd: target for fd, target in fds.items() if fd <= 5}}
        seen["server_fds"] = sorted(fd for fd, target in fds.items() if target in mine)
    before = cpu(first[0])
    time.sleep(2.0)
    seen["cpu_waiting"] = cpu(first[0]) - before
    pid, exited = run(1)
    seen["ran_in"], seen["exited"] = pid, exited
    second = waiting(1)
    seen["second"] = second
    os.kill(second[0], 9)
    seen["replaced"] = waiting(1, gone=second)
    ours.close()


threading.Thread(target=judge).start()
forkserver.serve(theirs)
time.sleep(0.5)
seen["left"] = children()
print(json.dumps(seen))
"""


def served(ahead: bool) -> dict:
    from judge.run import seccomp

    done = subprocess.run([sys.executable, "-c", SCRIPT.format(root=str(ROOT), ahead=ahead,
                                                               seccomp=seccomp.encoded())],
                          env={"PATH": os.environ.get("PATH", ""), "JAX_PLATFORMS": "cpu",
                               "PYTHONPATH": pythonpath()},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_a_worker_waits_ahead_holding_nothing_and_takes_the_next_run():
    seen = served(True)
    (first,) = seen["first"]
    # descriptors 0-2 the server's, 3 and 4 /dev/null, 5 its own socket: none of the server's
    # own (the control channel, the other end of a run's socket) nor another run's; only root
    # can list them (the child is not dumpable)
    if os.geteuid() == 0:
        assert seen["fds"]["3"] == seen["fds"]["4"] == "/dev/null", seen["fds"]
        assert seen["fds"]["5"].startswith("socket:"), seen["fds"]
        assert seen["server_fds"] == [], seen
    else:
        assert "fds" not in seen, seen
    # what the run it then took holds, seen from the run itself (as any user can): none of the
    # server's sockets, nor the socket it waited on (a worker holds no socket at all)
    run_fds = seen["run_fds"]["1"]
    assert not set(run_fds.values()) & set(seen["server_sockets"]), (run_fds, seen)
    assert not [t for t in run_fds.values() if t.startswith("socket:")], run_fds
    # its threads idle while it waits: nothing counts against the run it has not got yet
    assert seen["cpu_waiting"] < 0.2, seen
    # the run went to it, and it ended as any worker does
    assert seen["ran_in"] == first, seen
    assert seen["exited"]["op"] == "exited" and seen["exited"]["id"] == 1, seen
    assert seen["exited"]["cpu_s"] < 2.0, seen  # not the two seconds it waited, nor more
    # the next one is forked ahead, and replaced when it dies
    (second,) = seen["second"]
    assert second != first
    (third,) = seen["replaced"]
    assert third not in (first, second)
    # the server stopped: no child left, running or a zombie
    assert seen["left"] == [], seen


def test_without_ahead_no_worker_is_forked_before_its_run():
    seen = served(False)
    assert seen["before"] == [] and seen["run"], seen
    assert seen["left"] == [], seen


def test_as_many_wait_ahead_as_runs_were_in_flight_and_the_extra_ones_end_once_idle(monkeypatch):
    """The policy alone (``Ahead``), with stand-ins for the children: processes that sleep."""
    import subprocess as sp
    import time

    from judge.worker import ahead

    started = []

    def fork(_run):
        proc = sp.Popen(["sleep", "60"], start_new_session=True)
        started.append(proc)
        return proc.pid

    monkeypatch.setattr(ahead, "TRIM_S", 0.3)
    monkeypatch.setattr(ahead.os, "cpu_count", lambda: 3)
    pool = ahead.Ahead({"ahead": True, "isolate": False}, fork)
    try:
        def topped_up() -> int:
            while pool.needs_top_up():
                pool.top_up()
            return len(pool.spares)

        assert topped_up() == 1
        for in_flight in (1, 2, 5):  # the most at once, up to the cores
            pool.runs_in_flight(in_flight)
        assert topped_up() == 3
        pool.runs_in_flight(0)
        pool.trim()
        assert len(pool.spares) == 3  # not yet idle for long
        time.sleep(0.35)
        assert pool.timeout() == 0.0
        pool.trim()
        assert len(pool.spares) == 1 and topped_up() == 1
        for proc in started[1:]:  # the two ended
            assert proc.wait(timeout=5) == -9
        assert started[0].poll() is None
        # a child that dies before it is ready is replaced, up to a point
        for _ in range(ahead.MAX_FAILURES):
            (spare,) = pool.spares
            os.kill(spare.pid, 9)
            next(p for p in started if p.pid == spare.pid).wait(timeout=5)
            assert pool.ended(spare.pid)
            topped_up()
        assert pool.spares == [] and not pool.needs_top_up()
    finally:
        for proc in started:
            proc.kill()
            proc.wait()


def test_a_run_never_waits_for_a_child_that_has_not_said_its_workers_pid(monkeypatch):
    """A child forked ahead whose keeper has not said its worker's PID cannot be joined to a
    run's task group: the run passes it over at once (and gets one that has said it, else a
    child forked for it), and once ``PID_WAIT_S`` has passed since its fork it is ended."""
    import json
    import time

    from judge.worker import ahead, child

    says = {"pid": False}  # what the next child forked does

    def spare(config, channel):  # a keeper that says its worker's PID, or never does
        os.setsid()  # as a real one: the server ends a child by its process group
        if says["pid"]:
            os.write(channel, json.dumps({"op": "spare", "pid": os.getpid()}).encode())
        time.sleep(60)

    def fork(run):
        pid = os.fork()
        if pid == 0:
            try:
                run()
            finally:
                os._exit(0)
        return pid

    monkeypatch.setattr(child, "spare", spare)
    monkeypatch.setattr(ahead, "PID_WAIT_S", 1.0)
    pool = ahead.Ahead({"ahead": True, "isolate": True}, fork)
    pipes = [os.pipe() for _ in range(6)]
    fds = [r for r, _ in pipes[:5]] + [pipes[5][1]]  # the last: the run's cgroup.procs
    try:
        pool.top_up()
        (silent,) = pool.spares
        started = time.monotonic()
        assert pool.hand({"op": "run", "id": 1}, fds) is None  # a child is forked for it
        assert time.monotonic() - started < 0.5
        assert pool.spares == [silent]  # still waiting: it may yet say it
        says["pid"] = True
        pool.top_up()
        speaking = pool.spares[1]
        deadline = time.monotonic() + 10
        while speaking.worker is None and time.monotonic() < deadline:
            speaking.read()
            time.sleep(0.01)
        assert pool.hand({"op": "run", "id": 2}, fds) == speaking.pid  # the younger one
        assert os.read(pipes[5][0], 100) == str(speaking.pid).encode()  # joined to the group
        time.sleep(1.0)
        started = time.monotonic()
        assert pool.hand({"op": "run", "id": 3}, fds) is None
        assert time.monotonic() - started < 0.5
        assert pool.spares == [] and pool.failures == 1  # the silent one ended, counted
        assert os.waitpid(silent.pid, 0)[1] == 9  # SIGKILL
    finally:
        for spare_ in pool.spares + list(pool.handed.values()):
            try:
                os.kill(spare_.pid, 9)
                os.waitpid(spare_.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        for r, w in pipes:
            for fd in (r, w):
                try:
                    os.close(fd)
                except OSError:
                    pass
