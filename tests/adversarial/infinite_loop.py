"""Loops forever inside the entry point.

Expected: TLE (time_limit), with the judge back within the per-case limit plus start-up.
"""


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    while True:
        pass
