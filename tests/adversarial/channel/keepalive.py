"""Sleeps far past the case time limit while a thread keeps the channel busy with reports
(with the run's nonce) for case indices that were never sent, then returns honest values.

Expected: RJ channel_tampered, quickly (before: AC, the case timed at 0.2 s).
"""
import fcntl
import gc
import json
import os
import re
import stat

import threading
import time

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


ARRAY = {"kind": "array", "dtype": "float32", "shape": [2], "data": "AAAAQAAAgEA="}
OUTPUT = {"kind": "dict", "items": {"values": ARRAY, "grads": ARRAY}}


def _keep_alive():
    for i in range(1000):  # well-formed reports, but for indices the judge never sent
        forge(message(type="case", index=1000 + i, time_s=0.1, stdout="", stderr="", error=None,
                      output=OUTPUT, probes=None, trace={"primitives": [], "custom_vjp_calls": 0},
                      evidence={"custom_vjp_applied": 1, "backward_runs": 1,
                                "instrument_intact": True, "scaled": OUTPUT,
                                "provenance": {"reached": False, "rules": 1, "opaque": 0}}))
        time.sleep(0.3)


def twice(x, k, cotangent):
    threading.Thread(target=_keep_alive, daemon=True).start()
    time.sleep(__SLEEP__)
    return honest(x, cotangent)
