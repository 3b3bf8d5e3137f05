"""Burns CPU in a loop; run by the test with a small cpu_s and a long per-case time limit.

Expected: TLE (cpu_time_limit): SIGXCPU at the CPU limit.
"""


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    n = 0
    while True:
        n += 1
