"""Calls os._exit(0) in the middle of a case, after printing a fake verdict.

Expected: RTE (exited_early): the worker stopped before reporting every case, whatever it
printed and whatever its exit status.
"""
import os
import sys


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    sys.stdout.write("AC (Accepted) [ok]\n")
    sys.stdout.flush()
    os._exit(0)
