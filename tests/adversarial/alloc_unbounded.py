"""Allocates (and touches) 128 MiB blocks without bound.

Expected: MLE.
"""
import numpy as np


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    blocks = []
    while True:
        blocks.append(np.ones(128 * 1024 * 1024, dtype=np.uint8))
