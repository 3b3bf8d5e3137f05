"""Calls sys.exit(0) while being imported.

Expected: RTE (exit_called).
"""
import sys

sys.exit(0)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    return {"values": x, "grads": cotangent}
