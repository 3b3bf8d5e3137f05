"""Spins in a Python loop inside fake_quant_ste and never returns.

Expected verdict: time_limit_exceeded -- the judge kills the worker (and its whole process tree)
when the first case passes limits.time_per_case_s; every remaining case is TLE too.
"""
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    steps = 0
    while True:
        steps += 1
    return {"values": x, "grads": jnp.zeros_like(cotangent)}
