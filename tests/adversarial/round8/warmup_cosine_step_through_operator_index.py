"""warmup_cosine: the step made a Python int with ``operator.index`` (as if it were a NumPy
integer), then the schedule in plain Python ``math``: a concretization of the traced step.

Problem: warmup_cosine
Expected: RJ traced_value_concretized
"""
import math
import operator

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = operator.index(step)
    if s < warmup_steps:
        lr = base_lr * s / warmup_steps
    elif s <= total_steps:
        lr = 0.5 * base_lr * (1 + math.cos(math.pi * (s - warmup_steps) / (total_steps - warmup_steps)))
    else:
        lr = 0.0
    return jnp.float32(lr)
