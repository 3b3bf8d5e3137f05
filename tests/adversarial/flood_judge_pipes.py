"""Writes without end to every inherited pipe among descriptors 3-9 (the worker's saved copies
of the judge's stdout and stderr pipes), bypassing the per-case capture.

Expected: OLE (output_limit): the judge stops reading and kills the worker once the total
passes the output limit.
"""
import os
import stat


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    pipes = []
    for fd in range(3, 10):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                pipes.append(fd)
        except OSError:
            pass
    chunk = b"x" * 65536
    while True:
        for fd in pipes:
            try:
                os.write(fd, chunk)
            except OSError:
                pass
