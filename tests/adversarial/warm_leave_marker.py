"""Warm workers: leaves marks for the next submission the same fork server runs.

It writes a marker file named ``warm-marker-__NAME__`` (the test fills in __NAME__) into /tmp,
its working directory (/sandbox), $HOME, /dev/shm and / (ignoring every error), and creates a
System V shared-memory segment, semaphore set and message queue under the key 0x57524d4b
("WRMK") and leaves them behind; then it solves the problem correctly.
``warm_look_for_marker.py``, graded next by the same judge process, fails if it finds any of
these marks.

Expected: AC (and AC for ``warm_look_for_marker.py`` graded after it).
"""
import ctypes
import os

import jax
import jax.numpy as jnp

NAME = "warm-marker-__NAME__"
KEY = 0x57524D4B
IPC_CREAT = 0o1000

for folder in ("/tmp", os.getcwd(), "/sandbox", os.environ.get("HOME", "/sandbox"), "/dev/shm",
               "/"):
    try:
        with open(os.path.join(folder, NAME), "w") as f:
            f.write("left by warm_leave_marker.py\n")
    except OSError:
        pass

try:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmget(KEY, 4096, IPC_CREAT | 0o666)
    libc.semget(KEY, 1, IPC_CREAT | 0o666)
    libc.msgget(KEY, IPC_CREAT | 0o666)
except (OSError, AttributeError):
    pass


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
