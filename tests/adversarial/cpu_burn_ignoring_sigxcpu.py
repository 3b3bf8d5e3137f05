"""Ignores SIGXCPU, then burns CPU; run with a small cpu_s and a long per-case time limit.

Expected: TLE (cpu_time_limit): SIGKILL at the hard CPU limit.
"""
import signal

signal.signal(signal.SIGXCPU, signal.SIG_IGN)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    n = 0
    while True:
        n += 1
