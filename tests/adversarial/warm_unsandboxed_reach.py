"""Workers without isolation (``--sandbox none``): tries to reach the other processes of the
worker's own uid that belong to the judge.

WORKERS says which kind of worker this is. ``warm``: the worker is a child of the fork server
(its parent); the judge is the server's parent; a child waiting ahead is another child of the
server. ``fresh`` (``JUDGE_WARM=off``): the worker is a child of the judge (its parent), and
another run's fresh worker is another child of the judge. The other child is found in /proc (it
waits up to WAIT_S for one to have started its threads, and raises if none comes: the attack
must have a target); once done with it, the attack creates the file MARK, which such a
neighbour may wait for. For each target it tries ``ptrace(PTRACE_ATTACH)`` and
``ptrace(PTRACE_SEIZE)``, ``process_vm_readv`` of an address mapped in itself (a server and its
children share that layout), opening /proc/PID/mem for reading and for writing (then reading
it), reading /proc/PID/environ and /proc/PID/maps, and reading the links /proc/PID/fd/N and cwd.
A call refused with EPERM, EACCES or ESRCH is refused; anything else (EFAULT from
``process_vm_readv`` means the access check passed) counts as reached, and it raises naming what
it reached.

It also checks itself, every thread: the seccomp filter (``Seccomp: 2``), ``NoNewPrivs: 1``,
no capability, and not dumpable (``prctl(PR_GET_DUMPABLE)``), raising where one is missing.

The control: the same attempts on DECOY, a dumpable process of the same uid that the test
started; it prints which of them reached it (where the kernel lets a process of a uid open the
memory of a dumpable one of the same uid, /proc/DECOY/mem and environ open, which shows the
attempts above would have worked but for the judge's steps). Then it solves the problem
correctly, printing its report.

Expected: AC, with the report's control line naming /proc/DECOY/mem (where Yama does not forbid
it).
"""
import ctypes
import errno
import os
import time

import jax
import jax.numpy as jnp

DECOY = int("__DECOY__")
WORKERS = "__WORKERS__"
MARK = "__MARK__"
WAIT_S = 30.0
PTRACE_ATTACH, PTRACE_DETACH, PTRACE_SEIZE = 16, 17, 0x4206
PR_GET_DUMPABLE = 3
REFUSED = (errno.EPERM, errno.EACCES, errno.ESRCH)

libc = ctypes.CDLL(None, use_errno=True)
me = os.getpid()


class IoVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


def parent_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def own_address():
    """The start of this process's first mapping (the Python executable, mapped alike in the
    server and every child it forked)."""
    with open("/proc/self/maps") as f:
        return int(f.readline().split("-")[0], 16)


ADDRESS = own_address()


def attempts(pid):
    """What reached ``pid``, each a short text."""
    reached = []
    for request, name in ((PTRACE_ATTACH, "ptrace attach"), (PTRACE_SEIZE, "ptrace seize")):
        if libc.ptrace(request, pid, None, None) == 0:
            libc.ptrace(PTRACE_DETACH, pid, None, None)
            reached.append(name)
        elif ctypes.get_errno() not in REFUSED:
            reached.append(f"{name} ({os.strerror(ctypes.get_errno())})")
    buffer = ctypes.create_string_buffer(16)
    local, remote = IoVec(ctypes.addressof(buffer), 16), IoVec(ADDRESS, 16)
    got = libc.process_vm_readv(pid, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)
    if got >= 0 or ctypes.get_errno() not in REFUSED:
        reached.append(f"process_vm_readv ({got}, {os.strerror(ctypes.get_errno())})")
    for flags, mode in ((os.O_RDONLY, "read"), (os.O_RDWR, "read-write")):
        try:
            fd = os.open(f"/proc/{pid}/mem", flags)
        except OSError as exc:
            if exc.errno not in REFUSED:
                reached.append(f"/proc/{pid}/mem {mode} ({exc})")
            continue
        try:
            data = os.pread(fd, 16, ADDRESS)
        except OSError as exc:
            data = exc
        os.close(fd)
        reached.append(f"/proc/{pid}/mem {mode} (read {data!r})")
    for name in ("environ", "maps"):
        try:
            with open(f"/proc/{pid}/{name}", "rb") as f:
                data = f.read(64)
        except OSError:
            continue
        if data:
            reached.append(f"/proc/{pid}/{name} ({data[:30]!r})")
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        fds = []
    for link in [f"fd/{n}" for n in fds] + ["cwd"]:
        try:
            reached.append(f"/proc/{pid}/{link} -> {os.readlink(f'/proc/{pid}/{link}')}")
        except OSError:
            pass
    return reached


def own_state():
    """What this process lacks of its lock-down, per thread."""
    missing = []
    if libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0:
        missing.append("dumpable")
    for tid in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{tid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        state = {k: fields.get(k, "").strip() for k in ("Seccomp", "NoNewPrivs", "CapEff")}
        # a kernel that shows no NoNewPrivs (gVisor): this thread's own flag, which every thread
        # inherited from the one that set it before any other started
        state["NoNewPrivs"] = state["NoNewPrivs"] or ("1" if libc.prctl(39, 0, 0, 0, 0) == 1 else "")
        if state["Seccomp"] != "2" or state["NoNewPrivs"] != "1" or state["CapEff"].strip("0"):
            missing.append(f"thread {tid}: {state}")
    return missing


def waiting_beside(parent):
    """Children of ``parent`` other than this one, once one has started its threads."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) != me:
                try:
                    if parent_of(entry) == parent and len(os.listdir(f"/proc/{entry}/task")) > 1:
                        found.append(int(entry))
                except (OSError, ValueError):
                    pass
        if found:
            return found
        time.sleep(0.05)
    return []


missing = own_state()
if missing:
    raise RuntimeError(f"this worker is not locked down: {missing}")
if WORKERS == "warm":
    server = os.getppid()
    judge = parent_of(server)
    targets = [("server", server), ("judge", judge)]
    beside = waiting_beside(server)
    role = "waiting ahead"
elif WORKERS == "fresh":
    judge = os.getppid()
    targets = [("judge", judge)]
    beside = waiting_beside(judge)
    role = "another run's worker"
else:
    raise RuntimeError(f"WORKERS is {WORKERS!r}, not warm or fresh")
if not beside:
    raise RuntimeError(f"no other child of {targets[0][1]} started its threads: nothing to attack")
reached = {}
for name, pid in targets + [(role, p) for p in beside]:
    if found := attempts(pid):
        reached[f"{name} {pid}"] = found
open(MARK, "w").close()
if reached:
    raise RuntimeError(f"reached: {reached}")
control = attempts(DECOY)
REPORT = (f"{', '.join(f'{name} {pid}' for name, pid in targets)}, {role} {beside}: every "
          f"attempt refused; control (decoy {DECOY}) reached: {control}")


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    print(REPORT)  # shown with the example cases

    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def quant_fwd(v):
        u = v / scale
        mask = (u >= qmin) & (u <= qmax)
        return scale * jnp.clip(jnp.round(u), qmin, qmax), mask

    def quant_bwd(mask, g):
        return (jnp.where(mask, g, jnp.zeros_like(g)),)

    quant.defvjp(quant_fwd, quant_bwd)

    values, pullback = jax.vjp(quant, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
