"""Grows a list of 1 MiB byte strings without bound.

Expected: MLE.
"""


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    hoard = []
    while True:
        hoard.append(bytes(1 << 20))
