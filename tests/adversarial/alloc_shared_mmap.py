"""Maps 30 GB of shared anonymous memory (Python's mmap.mmap(-1, n) is MAP_SHARED), which a
limit on private data (RLIMIT_DATA) would not count, and writes to every page of it.

Expected: MLE.
"""
import mmap


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    size = 30 * 2**30
    shared = mmap.mmap(-1, size)
    for offset in range(0, size, mmap.PAGESIZE):
        shared[offset] = 1
    return {"values": x, "grads": cotangent}
