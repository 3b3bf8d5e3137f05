"""warmup_cosine: a cheat that computes the schedule in NumPy through ``jax.pure_callback``
reached by ``getattr`` on a name assembled at run time; the rule reads the traced program,
where the callback is whatever its spelling.

Problem: warmup_cosine
Expected: RJ
"""
import math

import jax
import jax.numpy as jnp
import numpy as np


def _schedule(step, base_lr, w, T):
    s = float(step)
    if s < w:
        return np.float32(base_lr * s / w)
    if s <= T:
        return np.float32(base_lr * 0.5 * (1 + math.cos(math.pi * (s - w) / (T - w))))
    return np.float32(0.0)


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    hook = getattr(jax, "pure" + "_" + "callback")
    return hook(lambda s: _schedule(s, base_lr, warmup_steps, total_steps),
                jax.ShapeDtypeStruct((), jnp.float32), step)
