"""Warm workers: looks for other processes at all.

Every worker runs in a PID namespace of its own, so the only process it should find in /proc is
itself: not the fork server, not the keeper that forked it, not another submission graded at the
same time. For SWEEP_S seconds (to overlap a concurrent submission) it lists /proc and records
every other process, with its name, state and memory from /proc/PID/status; if it saw any, it
raises naming them. Otherwise it solves the problem correctly.

Expected: AC, as for a fresh worker (bubblewrap's PID namespace, with its own /proc).
"""
import os
import time

import jax
import jax.numpy as jnp

SWEEP_S = 1.0
try:
    me = os.readlink("/proc/self")
except OSError:
    me = str(os.getpid())
others = {}
deadline = time.monotonic() + SWEEP_S
while time.monotonic() < deadline:
    try:
        pids = [d for d in os.listdir("/proc") if d.isdigit() and d != me]
    except OSError:
        pids = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
            others[pid] = " ".join(fields.get(k, "?").strip()
                                   for k in ("Name", "State", "PPid", "VmRSS"))
        except OSError:
            others.setdefault(pid, "(status unreadable)")
    time.sleep(0.05)
if others:
    raise RuntimeError("other processes visible in /proc: "
                       + "; ".join(f"{pid}: {what}" for pid, what in sorted(others.items())))


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
