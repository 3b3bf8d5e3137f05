"""Warm workers: two copies graded at the same time try to find each other.

Each copy, at import, sets up three meeting points and keeps them for HOLD_S seconds, looking
for the other copy's all the while:

* an abstract UNIX socket @warm-rendezvous-<random> (listening), and it looks in
  /proc/net/unix for one with another suffix and connects to it;
* a pseudo-terminal (os.openpty), and it looks in /dev/pts for another terminal and opens
  it;
* a System V shared-memory segment created with IPC_EXCL under the key 0x52445a56 ("RDZV"):
  EEXIST means the other copy's segment is visible.

If it finds the other copy through any of them it raises, naming the channel; otherwise it
solves the problem correctly.

Expected: AC for both copies (separate network and IPC namespaces, and nothing shared under
/dev/pts). RTE (import_exception) means two concurrent submissions can talk to each other.
"""
import ctypes
import errno
import os
import secrets
import socket
import time

import jax
import jax.numpy as jnp

HOLD_S = 2.0
KEY, IPC_CREAT, IPC_EXCL, IPC_RMID = 0x52445A56, 0o1000, 0o2000, 0
PREFIX = "warm-rendezvous-"
mine = PREFIX + secrets.token_hex(6)
found = set()
libc = ctypes.CDLL(None, use_errno=True)

listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    listener.bind("\0" + mine)
    listener.listen(4)
except OSError:
    pass
own_ttys = set()
try:
    master, slave = os.openpty()
    own_ttys.add(os.path.realpath(os.ttyname(slave)))
except OSError:
    pass
shm_id = libc.shmget(KEY, 4096, IPC_CREAT | IPC_EXCL | 0o666)
if shm_id == -1 and ctypes.get_errno() == errno.EEXIST:
    found.add(f"System V shared memory 0x{KEY:x} made by another submission")

deadline = time.monotonic() + HOLD_S
while time.monotonic() < deadline:
    try:
        with open("/proc/net/unix") as f:
            names = {line.split()[-1][1:] for line in f if "@" + PREFIX in line}
    except OSError:
        names = set()
    for name in names - {mine}:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            try:
                s.connect("\0" + name)
                found.add(f"connected to abstract socket @{name}")
            except OSError as exc:
                found.add(f"abstract socket @{name} listed ({exc.strerror})")
    try:
        ttys = {f"/dev/pts/{n}" for n in os.listdir("/dev/pts") if n.isdigit()}
    except OSError:
        ttys = set()
    for tty in ttys - own_ttys:
        try:
            fd = os.open(tty, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError as exc:
            found.add(f"{tty} exists ({exc.strerror})")
        else:
            os.close(fd)
            found.add(f"opened {tty}, another submission's terminal")
    if found:
        break
    time.sleep(0.05)
if shm_id != -1:
    libc.shmctl(shm_id, IPC_RMID, None)
if found:
    raise RuntimeError("found another submission: " + "; ".join(sorted(found)))


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
