"""The fork server's preparation before any fork (``judge.worker.forkserver.settle``): it must
start no backend and no thread (a child forked after either can hang), and every child must
still compute, lowering with the context the server made, each child in as many threads as
it likes."""

import json
import os
import subprocess
import sys

import pytest

from tests.helpers import ROOT, pythonpath

SETTLED = r"""
import gc, json, os, sys, threading
sys.path.insert(0, {root!r})
import jax
from jax._src import xla_bridge
from jax._src.interpreters import mlir
from judge.worker import forkserver, lowering
lowering.preload()
tasks = len(os.listdir("/proc/self/task"))
forkserver.settle()
made = mlir.make_ir_context()
found = {{"backends": bool(xla_bridge._backends), "python_threads": threading.active_count(),
          "new_tasks": len(os.listdir("/proc/self/task")) - tasks}}
answers = []
for _ in range(2):  # each child from the same settled server
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        import jax.numpy as jnp
        import numpy as np
        same = mlir.make_ir_context() is made
        x = np.arange(12.0, dtype=np.float32).reshape(3, 4)
        y = float(jnp.sum(jnp.tanh(x) @ x.T)) + float(jax.lax.fori_loop(0, 3, lambda i, a: a * 2.0, 1.0))
        other = []
        t = threading.Thread(target=lambda: other.append(float(jnp.sum(jnp.ones((5, 5)) @ jnp.ones((5, 2))))))
        t.start(); t.join()
        gc.collect()
        os.write(w, json.dumps([same, round(y, 3), other[0]]).encode())
        os._exit(0)
    os.close(w)
    os.waitpid(pid, 0)
    answers.append(json.loads(os.read(r, 1000).decode()))
found["children"] = answers
print(json.dumps(found))
"""


def test_settling_starts_no_backend_nor_thread_and_children_still_compute():
    x = [[float(4 * i + j) for j in range(4)] for i in range(3)]
    import math
    expected = round(sum(sum(math.tanh(a) * b for a, b in zip(row, other)) for row in x for other in x) + 8.0, 3)
    done = subprocess.run([sys.executable, "-c", SETTLED.format(root=str(ROOT))],
                          env={"PATH": os.environ.get("PATH", ""), "JAX_PLATFORMS": "cpu",
                               "PYTHONPATH": pythonpath()},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["backends"] is False and found["python_threads"] == 1 and found["new_tasks"] == 0
    for same, value, other in found["children"]:
        assert same and abs(value - expected) < 1e-2 * abs(expected) and other == 50.0


SERVED = r"""
import json, socket, sys
sys.path.insert(0, {root!r})
from judge.worker import forkserver
ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
ours.send(json.dumps({config}).encode())
import os, threading
forked = []  # whether JAX was imported at each fork
real_fork = os.fork
os.fork = lambda: forked.append("jax" in sys.modules) or real_fork()
threading.Thread(target=forkserver.serve, args=(theirs,), daemon=True).start()
print(json.dumps({{"answer": json.loads(ours.recv(65536)), "forked": forked}}), flush=True)
os._exit(0)
"""


def namespaces_refused() -> str | None:
    """Why this machine refuses a process its own namespaces (``isolate.new_namespaces``), as
    the error names it, or None where it does not."""
    probe = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
                            "from judge.worker import isolate; isolate.new_namespaces()"],
                           capture_output=True, text=True, timeout=60)
    if probe.returncode == 0:
        return None
    last = probe.stderr.strip().splitlines()[-1]
    return last.split("] ", 1)[-1]  # "OSError: [Errno 1] unshare: Operation not permitted"


def test_a_server_whose_children_cannot_be_isolated_says_why_instead_of_ready(tmp_path):
    # the isolation test child is forked before JAX is imported, and runs meanwhile; its
    # answer still decides
    config = {"isolate": True, "seccomp": "", "workdir": str(tmp_path / "missing" / "workdir"),
              "tmpfs_bytes": 1 << 20}
    done = subprocess.run([sys.executable, "-c", SERVED.format(root=str(ROOT), config=config)],
                          env={"PATH": os.environ.get("PATH", ""), "JAX_PLATFORMS": "cpu",
                               "PYTHONPATH": pythonpath()},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.splitlines()[-1])
    answer = found["answer"]
    # where the machine lets a process make namespaces, the step that fails is the tmpfs on the
    # missing folder; where it does not (gVisor as an ordinary user), the first step says so
    refused = namespaces_refused()
    assert answer["op"] == "failed" and (refused or "mount tmpfs") in answer["error"], answer
    assert found["forked"] == [False]  # the test child, forked before JAX was imported


@pytest.mark.parametrize("has_filter", [True, False])
def test_a_server_without_isolation_tries_the_lock_down_once_and_names_what_fails(has_filter):
    # the steps that need no privilege are tried in a child forked before JAX is imported; a
    # step that fails there (no filter for this machine) is named in ready, not fatal
    from judge.run import seccomp

    config = {"isolate": False, "seccomp": seccomp.encoded() if has_filter else None,
              "workdir": "/nonexistent", "tmpfs_bytes": 0}
    done = subprocess.run([sys.executable, "-c", SERVED.format(root=str(ROOT), config=config)],
                          env={"PATH": os.environ.get("PATH", ""), "JAX_PLATFORMS": "cpu",
                               "PYTHONPATH": pythonpath()},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.splitlines()[-1])
    answer = found["answer"]
    assert answer["op"] == "ready", answer
    if has_filter:
        assert "unconfined" not in answer, answer
    else:
        assert answer["unconfined"].startswith("seccomp: ") and "no filter" in answer["unconfined"]
    assert found["forked"] == [False]  # the test child, forked before JAX was imported


COLLECTED = r"""
import gc, json, os, resource, sys
sys.path.insert(0, {root!r})
from judge.worker import forkserver
gc.disable()  # as the server runs
forkserver.load()
import jax
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    gc.enable()  # as a worker does
    young = gc.get_count()[0]
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    gc.collect(0)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    listed = any(o is jax.__dict__ for o in gc.get_objects())
    os.write(w, json.dumps({{"young": young, "faults": faults, "listed": listed,
                            "frozen": gc.get_freeze_count()}}).encode())
    os._exit(0)
os.close(w)
os.waitpid(pid, 0)
print(os.read(r, 1000).decode())
"""


def test_a_child_collects_none_of_what_the_server_loaded_yet_still_lists_it():
    # the server's imports are moved to the oldest generation before any fork: a child's young
    # collections walk none of them (no page of the server's heap is copied), and
    # gc.get_objects() still shows them, as in a fresh worker (nothing is left frozen)
    done = subprocess.run([sys.executable, "-c", COLLECTED.format(root=str(ROOT))],
                          env={"PATH": os.environ.get("PATH", ""), "JAX_PLATFORMS": "cpu",
                               "PYTHONPATH": pythonpath()},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["young"] < 700 and found["faults"] < 200, found
    assert found["listed"] and found["frozen"] == 0, found


IDLE = r"""
import json, os, socket, sys, tempfile, threading, time
sys.path.insert(0, {root!r})
from judge.worker import forkserver
collected = []
forkserver.collect_when_idle = lambda: collected.append(time.monotonic())
ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
seen = {{}}

def judge():
    ours.send(json.dumps({{"op": "config", "isolate": False, "seccomp": {seccomp!r},
                          "workdir": "/nonexistent", "tmpfs_bytes": 0}}).encode())
    assert json.loads(ours.recv(65536))["op"] == "ready"
    if {run!r}:  # a worker that waits for its request until the judge closes its stdin
        stdin, stdout, stderr, result, source = (os.pipe() for _ in range(5))
        os.write(source[1], b"pass\n")
        os.close(source[1])
        socket.send_fds(ours, [json.dumps({{"op": "run", "id": 1, "workdir": tempfile.mkdtemp(),
                                           "cache": None}}).encode()],
                        [stdin[0], stdout[1], stderr[1], result[1], source[0]])
        time.sleep(0.4)
        seen["while_running"] = list(collected)
        os.close(stdin[1])
        assert json.loads(ours.recv(65536))["op"] == "exited"
    waited = time.monotonic()
    while not collected and time.monotonic() - waited < 30:
        time.sleep(0.05)
    time.sleep(0.2)  # and no second time
    seen["collected"] = list(collected)
    ours.close()

threading.Thread(target=judge).start()
forkserver.serve(theirs)
print(json.dumps(seen))
"""


@pytest.mark.parametrize("run", [False, True])
def test_the_server_collects_its_garbage_once_idle_never_beside_a_worker(run):
    # what importing left is collected once nothing has come for a while: at once for a server
    # kept waiting; after the worker has ended where one was forked (a lone grade's only worker
    # does not share its CPU with the collection)
    from judge.run import seccomp

    done = subprocess.run([sys.executable, "-c", IDLE.format(root=str(ROOT), run=run,
                                                             seccomp=seccomp.encoded())],
                          env={"PATH": os.environ.get("PATH", ""), "JAX_PLATFORMS": "cpu",
                               "PYTHONPATH": pythonpath()},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.splitlines()[-1])
    assert len(seen["collected"]) == 1, seen
    assert not run or seen["while_running"] == [], seen
