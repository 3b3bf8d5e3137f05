"""warmup_cosine: a cheat that computes the rate in Python through ``jax.pure_callback`` reached
by ``importlib.import_module("jax").__dict__`` (a callback spelled indirectly).

Problem: warmup_cosine
Expected: RJ
"""
import importlib
import math

import numpy as np


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    jx = importlib.import_module("jax")
    call = jx.__dict__["pure" + "_callback"]

    def rate(s):
        s = int(s)
        if s < warmup_steps:
            return np.float32(base_lr * s / warmup_steps)
        if s > total_steps:
            return np.float32(0.0)
        return np.float32(0.5 * base_lr * (1 + math.cos(math.pi * (s - warmup_steps) / (total_steps - warmup_steps))))

    return call(rate, jx.ShapeDtypeStruct((), np.float32), step)
