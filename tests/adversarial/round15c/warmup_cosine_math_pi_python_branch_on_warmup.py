"""warmup_cosine: ``math.pi`` and Python floats for the constants, a Python ``if`` on the static
``warmup_steps`` (no warmup branch at all when it is 0, so nothing divides by zero), the
phases joined with nested ``jnp.where`` and a scalar ``0.0`` after the end.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import math

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    span = float(total_steps - warmup_steps)
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(math.pi * (s - warmup_steps) / span))
    lr = jnp.where(s <= total_steps, cosine, 0.0)
    if warmup_steps > 0:
        lr = jnp.where(s < warmup_steps, base_lr * s / warmup_steps, lr)
    return lr.astype(jnp.float32)
