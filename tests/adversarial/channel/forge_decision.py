"""Forges, with the run's nonce, messages about the judge's answers to a program (variant
__VARIANT__) when the program of the first hidden case's key (k = 1, case 1) is traced, then
returns k x, an honest program. __SLEEP__ seconds after forging, it goes on.

Expected: RJ channel_tampered from case 1 on (a skip the judge did not grant, a program for a
case that is not due or not sent to be asked about, a second program for a case); with a program
the rules refuse and a skip of that very program, RJ (never better); a worker that asks and
never reports the case is TLE.
"""
import fcntl
import gc
import json
import os
import re
import stat
import time

import jax.numpy as jnp


def _write_pipes():
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        try:
            if fd >= 256 and stat.S_ISFIFO(os.fstat(fd).st_mode) \
                    and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
                yield fd
        except OSError:
            pass


def _nonce():
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


def forge(**fields) -> None:
    line = (json.dumps({**fields, "nonce": _nonce()}) + "\n").encode()
    for fd in list(_write_pipes()):
        try:
            os.write(fd, line)
        except OSError:
            pass


TRACE = {"primitives": ["mul"], "custom_vjp_calls": 0}
HONEST = {"equations": 1, "primitives": {"mul": 1}, "live": {"mul": 1}, "largest": []}
REFUSED = {"equations": 3, "primitives": {"mul": 2, "sin": 1, "add": 1},
           "live": {"mul": 2, "sin": 1, "add": 1}, "largest": []}


def skipped(index, program):
    return dict(type="case", index=index, skipped=True, time_s=0.01, stdout="", stderr="",
                error=None, output={"kind": "abstract", "dtype": "float32", "shape": [1]},
                probes=None, trace=TRACE, evidence=None, program=program)


VARIANTS = {
    "skip_not_granted": [skipped(1, HONEST)],
    "skip_after_an_honest_program": [dict(type="program", index=1, program=HONEST, trace=TRACE),
                                     skipped(1, HONEST)],
    "skip_of_another_program": [dict(type="program", index=1, program=REFUSED, trace=TRACE),
                                skipped(1, HONEST)],
    "program_of_a_case_not_sent": [dict(type="program", index=99, program=REFUSED, trace=TRACE)],
    "program_of_an_example": [dict(type="program", index=0, program=REFUSED, trace=TRACE)],
    "program_of_a_case_not_due": [dict(type="program", index=2, program=REFUSED, trace=TRACE)],
    "program_twice": [dict(type="program", index=1, program=HONEST, trace=TRACE)],
    "skip_of_a_refused_program": [dict(type="program", index=1, program=REFUSED, trace=TRACE),
                                  skipped(1, REFUSED)],
    "asks_and_never_reports": [dict(type="program", index=1, program=REFUSED, trace=TRACE)],
}
DONE = []


def scaled(x, k):
    if k == 1 and not DONE:
        DONE.append(1)
        for message in VARIANTS["__VARIANT__"]:
            forge(**message)
        time.sleep(__SLEEP__)
    return k * x
