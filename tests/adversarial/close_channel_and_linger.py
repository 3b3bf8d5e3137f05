"""Closes its own result channel in the middle of a case, then keeps running.

Expected: RTE (exited_early): the worker stopped reporting before every case was reported; the
judge stops it, and the verdict says why rather than naming the signal the judge sent.
"""
import fcntl
import os
import time


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    for name in os.listdir("/proc/self/fd"):  # every pipe it may write to, past stderr
        fd = int(name)
        try:
            if fd > 2 and os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:") \
                    and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY:
                os.close(fd)
        except OSError:
            pass
    time.sleep(60)
    return x, x
