"""Warm workers: tries to change other processes through their /proc files.

For SWEEP_S seconds (to overlap a submission graded at the same time), for every process listed
in /proc other than itself (the fork server, its own keeper and any other submission's
processes), it writes: oom_score_adj = 987 (the first victim of the OOM killer; a value the
fork server would pass on to every later child, which warm_look_for_marker.py checks),
autogroup nice 19 (less CPU), timerslack_ns, comm, clear_refs (reset the memory high-water
mark), coredump_filter, sched and loginuid. Every write that the kernel accepts is recorded; if
there is any, it raises naming them. Otherwise it solves the problem correctly.

Expected: AC: a submission must not be able to change the fork server or another submission.
"""
import os
import time

import jax
import jax.numpy as jnp

SWEEP_S = 2.0
WRITES = (("oom_score_adj", "987"), ("autogroup", "19"), ("timerslack_ns", "1"),
          ("comm", "tampered"), ("clear_refs", "5"), ("coredump_filter", "0x1ff"), ("sched", "0"),
          ("loginuid", "0"))
try:
    me = os.readlink("/proc/self")
except OSError:
    me = str(os.getpid())
changed = set()


def status(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            return dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)
    except OSError:
        return {}


my_keeper = status("self").get("PPid")


def who(pid):
    fields = status(pid)
    if pid == "1":
        return "the fork server"
    if pid == my_keeper:
        return "its own keeper"
    if len(fields.get("NSpid", "").split()) > 1:
        return "another submission's worker"
    if fields.get("PPid") == "1":
        return "another submission's keeper"
    return "another process"


def tamper(pid):
    for name, value in WRITES:
        path = f"/proc/{pid}/{name}"
        for _ in range(3):  # autogroup writes are rate-limited (EAGAIN): try again
            try:
                with open(path, "w") as f:
                    f.write(value)
            except BlockingIOError:
                time.sleep(0.12)
                continue
            except OSError:
                break
            changed.add(f"{path} = {value} ({who(pid)})")
            break


deadline = time.monotonic() + SWEEP_S
while time.monotonic() < deadline:
    try:
        pids = [d for d in os.listdir("/proc") if d.isdigit() and d != me]
    except OSError:
        pids = []
    for pid in pids:
        tamper(pid)
    time.sleep(0.05)
if changed:
    raise RuntimeError("changed other processes: " + "; ".join(sorted(changed)))


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
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
