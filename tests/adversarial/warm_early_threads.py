"""Warm workers: looks for a thread that was started before the walls went up.

A worker forked ahead of its run has JAX's CPU backend made, and its thread pools started,
before its run comes. Capabilities, ``no_new_privs`` and a seccomp filter are each a thread's
own: a thread started before they were set for the thread that set them keeps none of them,
and code running there (a host callback runs on one of XLA's threads) could start a process or
a namespace. At import this reads every thread's ``/proc/self/task/TID/status`` and raises
naming any without the seccomp filter (``Seccomp: 2``), with a capability, or without
``NoNewPrivs``; then, from inside a ``jax.pure_callback`` of a computation it runs at import
(wherever XLA runs the callback), it tries ``fork`` and ``unshare(CLONE_NEWUSER)`` and raises
if either succeeds. Then it solves the problem correctly (no callback in what is graded).

Expected: AC (every thread carries the filter, no capability and no new privileges; both calls
fail with EPERM).
"""
import ctypes
import os
import threading

import jax
import jax.numpy as jnp
import numpy as np

CLONE_NEWUSER = 0x10000000


def _thread_states() -> dict:
    found = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/status") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
        except OSError:
            continue
        found[tid] = {k: fields.get(k, "").strip() for k in ("Name", "Seccomp", "CapEff", "NoNewPrivs")}
    return found


_states = _thread_states()
# A kernel that does not show NoNewPrivs in a thread's status (gVisor) is asked for this thread's
# own flag: every thread here inherited it from the one that set it before any other started.
_no_new_privs = "1" if ctypes.CDLL(None).prctl(39, 0, 0, 0, 0) == 1 else ""  # PR_GET_NO_NEW_PRIVS
_open = {tid: s for tid, s in _states.items()
         if s["Seccomp"] != "2" or s["CapEff"].strip("0") or (s["NoNewPrivs"] or _no_new_privs) != "1"}
if _open:
    raise RuntimeError(f"threads without the walls: {_open}")
print(f"{len(_states)} threads, every one filtered")


def _try_escape(x):
    libc = ctypes.CDLL(None, use_errno=True)
    made = []
    try:
        pid = os.fork()
    except OSError:
        pid = None
    if pid == 0:
        os._exit(0)
    if pid is not None:
        os.waitpid(pid, 0)
        made.append("fork")
    if libc.unshare(CLONE_NEWUSER) == 0:
        made.append("unshare")
    if made:
        raise RuntimeError(f"from a callback's thread: {made} succeeded")
    print(f"callback on thread {threading.get_native_id()} (of {sorted(_states)}): fork and "
          f"unshare refused")
    return np.asarray(x)


jax.jit(lambda v: jax.pure_callback(_try_escape, jax.ShapeDtypeStruct((), jnp.float32), v))(
    jnp.float32(1.0)).block_until_ready()


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
