"""Warm workers: tries to kill every other process it can name, for three seconds.

At import, repeatedly for SWEEP_S seconds (long enough to overlap a submission graded at the
same time by the same fork server): kill(-1, SIGKILL); kill(1, SIGKILL) unless it is PID 1
itself; and for every process listed in /proc other than itself, kill() and killpg() with
SIGKILL, pidfd_open() + pidfd_send_signal(), and pidfd_send_signal() through a descriptor of
its /proc/PID directory (which names processes of the namespace /proc belongs to, not only of
its own). Every error is ignored. Then it solves the problem correctly, printing (shown with
the example cases) which other processes it saw and which signals the kernel accepted.

Expected: AC; a submission graded concurrently by the same fork server also gets AC, and the
server is still alive and serves the next grade.
"""
import ctypes
import os
import signal
import time

import jax
import jax.numpy as jnp

SWEEP_S = 3.0
PIDFD_SEND_SIGNAL, PIDFD_OPEN = 424, 434  # the same numbers on x86_64 and aarch64

libc = ctypes.CDLL(None, use_errno=True)
me = os.getpid()
try:
    me_in_proc = os.readlink("/proc/self")
except OSError:
    me_in_proc = str(me)
seen, accepted = set(), set()


def attempt(what, call):
    try:
        result = call()
    except OSError:
        return
    if result is None or result == 0:
        accepted.add(what)


def pidfd_signal_via_proc(pid):
    fd = os.open(f"/proc/{pid}", os.O_RDONLY | os.O_DIRECTORY)
    try:
        return libc.syscall(PIDFD_SEND_SIGNAL, fd, signal.SIGKILL, None, 0)
    finally:
        os.close(fd)


def pidfd_signal_via_open(pid):
    fd = libc.syscall(PIDFD_OPEN, pid, 0)
    if fd < 0:
        return -1
    try:
        return libc.syscall(PIDFD_SEND_SIGNAL, fd, signal.SIGKILL, None, 0)
    finally:
        os.close(fd)


deadline = time.monotonic() + SWEEP_S
while time.monotonic() < deadline:
    attempt("kill(-1)", lambda: os.kill(-1, signal.SIGKILL))
    if me != 1:
        attempt("kill(1)", lambda: os.kill(1, signal.SIGKILL))
    try:
        pids = [int(d) for d in os.listdir("/proc") if d.isdigit() and d != me_in_proc]
    except OSError:
        pids = []
    for pid in pids:
        seen.add(pid)
        if pid != me:  # a number from /proc may be this process's own PID in its namespace
            attempt(f"kill({pid})", lambda: os.kill(pid, signal.SIGKILL))
            attempt(f"killpg({pid})", lambda: os.killpg(pid, signal.SIGKILL))
            attempt(f"pidfd_open({pid})", lambda: pidfd_signal_via_open(pid))
        attempt(f"/proc/{pid} pidfd", lambda: pidfd_signal_via_proc(pid))
    time.sleep(0.02)

REPORT = f"other processes seen in /proc: {sorted(seen)}; signals accepted: {sorted(accepted)}"


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
