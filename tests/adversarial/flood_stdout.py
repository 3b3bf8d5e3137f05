"""Prints without end.

Expected: OLE (output_limit): the captured output passes the file-size limit.
"""
import sys


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    line = "spam " * 200 + "\n"
    while True:
        sys.stdout.write(line)
