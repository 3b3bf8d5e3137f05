"""Warm workers: tries to read or write another process's descriptors, environment and memory.

For SWEEP_S seconds (to overlap a submission graded at the same time), for every process listed
in /proc other than itself (the fork server, its own keeper and any other submission's
processes), it tries to open each /proc/PID/fd/N and /proc/PID/task/TID/fd/N, /proc/PID/environ
and /proc/PID/mem for reading and for writing, to read /proc/PID/environ, mem, maps, smaps,
pagemap, auxv, stack, syscall and io, to read the links exe, cwd, root and fd/N, and to list the
folders cwd, root, fdinfo and map_files. Listing /proc/PID/fd itself is not counted (a name is
not access), nor is what succeeds only on a process that has already exited (see ``alive``). If
any attempt succeeds it raises, naming what it opened; otherwise it solves the problem
correctly, printing which processes it tried.

Expected: AC (every attempt is refused: the other processes are not dumpable and this one has
no capabilities).
"""
import os
import time

import jax
import jax.numpy as jnp

SWEEP_S = 2.0
try:
    me = os.readlink("/proc/self")
except OSError:
    me = str(os.getpid())
opened, tried = [], set()


def alive(pid):
    """Whether the process still has its memory. A process that has exited (a zombie) has no
    memory and no descriptors: its /proc files open without a check but hold nothing, so only
    what succeeds on a process that is still alive *after* the attempt counts."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return any(line.startswith("VmSize:") for line in f)
    except OSError:
        return False


def try_open(pid, path):
    for flags, mode in ((os.O_RDONLY, "read"), (os.O_WRONLY, "write"), (os.O_RDWR, "read-write")):
        try:
            fd = os.open(path, flags | os.O_NONBLOCK | os.O_NOCTTY)
        except OSError:
            continue
        os.close(fd)
        if alive(pid):
            opened.append(f"{path} ({mode})")


def try_read(pid, path):
    try:
        with open(path, "rb") as f:
            data = f.read(64)
    except OSError:
        return
    if data and alive(pid):
        opened.append(f"{path} (read {data[:40]!r})")


def try_other(pid, path, call):
    try:
        value = call(path)
    except OSError:
        return
    if value and alive(pid):
        opened.append(f"{path} -> {value!r}"[:200])


def snoop(pid):
    base = f"/proc/{pid}"
    fd_folders = [f"{base}/fd"]
    try:
        fd_folders += [f"{base}/task/{tid}/fd" for tid in os.listdir(f"{base}/task")]
    except OSError:
        pass
    for folder in fd_folders:
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            try_open(pid, f"{folder}/{name}")
            try_other(pid, f"{folder}/{name}", os.readlink)
    for name in ("environ", "mem", "maps", "smaps", "pagemap", "auxv", "stack", "syscall", "io"):
        try_read(pid, f"{base}/{name}")
    for name in ("environ", "mem"):
        try_open(pid, f"{base}/{name}")
    for name in ("exe", "cwd", "root"):
        try_other(pid, f"{base}/{name}", os.readlink)
    for name in ("cwd", "root", "fdinfo", "map_files"):
        try_other(pid, f"{base}/{name}", os.listdir)


deadline = time.monotonic() + SWEEP_S
while time.monotonic() < deadline and not opened:
    try:
        pids = [d for d in os.listdir("/proc") if d.isdigit() and d != me]
    except OSError:
        pids = []
    for pid in pids:
        tried.add(pid)
        snoop(pid)
    time.sleep(0.05)
REPORT = f"other processes tried: {sorted(tried, key=int)}"
if opened:
    raise RuntimeError("opened another process's files: " + "; ".join(sorted(set(opened))[:20]))


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
