"""On a hidden case, writes a message (with the run's nonce) whose type is the case's hidden input.

Expected: RJ channel_tampered, and no hidden case's message holds k (before: "unexpected
'leak1037' message").
"""
import fcntl
import gc
import json
import os
import re
import stat

import jax


@jax.custom_vjp
def double(v):
    return 2 * v


def _fwd(v):
    return 2 * v, None


def _bwd(_, g):
    return (2 * g,)


double.defvjp(_fwd, _bwd)


def honest(x, cotangent):
    values, pullback = jax.vjp(double, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}


def _write_pipes():
    """Write ends of pipes at high descriptors: the result channel (the worker moved it there)."""
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            if fd >= 256 and stat.S_ISFIFO(os.fstat(fd).st_mode) \
                    and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
                yield fd
        except OSError:
            pass


def _nonce():
    """The run's nonce, read from the closures of the worker's functions."""
    for obj in gc.get_objects():
        if type(obj).__name__ != "function":
            continue
        for cell in obj.__closure__ or ():
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if isinstance(value, str) and re.fullmatch("[0-9a-f]{32}", value):
                return value
    return None


def forge(line: bytes) -> None:
    for fd in list(_write_pipes()):
        try:
            os.write(fd, line)
        except OSError:
            pass


def message(**fields) -> bytes:
    return (json.dumps({**fields, "nonce": _nonce()}) + "\n").encode()


def twice(x, k, cotangent):
    if x.shape[0] == 1:
        forge(message(type=f"leak{1000 + k}"))
    return honest(x, cotangent)
