"""Allocates 30 GB with NumPy while being imported.

Expected: MLE.
"""
import numpy as np

HOARD = np.ones(30 * 2**30, dtype=np.uint8)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    return {"values": x, "grads": cotangent}
