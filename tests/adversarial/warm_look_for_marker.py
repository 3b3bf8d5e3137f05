"""Warm workers: looks for the marks an earlier submission of the same fork server left.

At import it searches /tmp, its working directory (/sandbox), $HOME, /dev/shm and / for any
file whose name starts with ``warm-marker-`` (``warm_leave_marker.py`` writes them), looks up
the System V shared-memory segment, semaphore set and message queue with the key 0x57524d4b
that ``warm_leave_marker.py`` leaves, and checks that its own ``oom_score_adj`` is not 987, the
value ``warm_proc_tamper.py`` tries to write into the fork server (a child inherits it from the
server). If any mark is there it raises, naming what it found; otherwise it solves the problem
correctly.

Expected: AC. RTE (import_exception) means one submission's state reached a later one.
"""
import ctypes
import os

import jax
import jax.numpy as jnp

KEY = 0x57524D4B
found = []
for folder in ("/tmp", os.getcwd(), "/sandbox", os.environ.get("HOME", "/sandbox"), "/dev/shm",
               "/"):
    try:
        names = os.listdir(folder)
    except OSError:
        continue
    found += [os.path.join(folder, n) for n in names if n.startswith("warm-marker-")]

libc = ctypes.CDLL(None, use_errno=True)
for call in ("shmget", "semget", "msgget"):
    args = (KEY, 0, 0) if call != "msgget" else (KEY, 0)
    if getattr(libc, call)(*args) != -1:
        found.append(f"System V IPC object {call}(0x{KEY:x}) exists")
try:
    with open("/proc/self/oom_score_adj") as f:
        if f.read().strip() == "987":
            found.append("/proc/self/oom_score_adj is 987 (set in the fork server by an earlier "
                         "submission)")
except OSError:
    pass
if found:
    raise RuntimeError("marks of an earlier submission: " + "; ".join(sorted(set(found))))


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
