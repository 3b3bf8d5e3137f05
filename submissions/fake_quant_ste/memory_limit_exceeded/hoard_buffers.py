"""Keeps reserving 256 MiB buffers "for later" without ever freeing them.

Expected verdict: memory_limit_exceeded -- the allocation fails at limits.memory_mb (an
address-space limit) and the judge reports MLE rather than an ordinary exception.
"""
import numpy as np

_cache = []


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    while True:
        _cache.append(np.empty(256 * 2**20, dtype=np.uint8))
