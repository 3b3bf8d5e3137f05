"""The step made a Python int first, then the schedule computed with the math module.

Expected verdict: rejected (a traced value turned into a Python number).
"""
import math

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = int(step)
    if s < warmup_steps:
        lr = base_lr * s / warmup_steps
    else:
        progress = min(s - warmup_steps, total_steps - warmup_steps) / (total_steps - warmup_steps)
        lr = 0.5 * base_lr * (1.0 + math.cos(math.pi * progress))
    return jnp.float32(lr)
