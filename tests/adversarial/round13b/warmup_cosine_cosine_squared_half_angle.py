"""warmup_cosine: the decay by the half-angle identity, ``base_lr * cos(pi * p / 2) ** 2`` for
``0.5 * (1 + cos(pi * p))``, which is also accurate near the end of the decay; the warmup by
``jnp.minimum`` of the two ramps where ``w > 0``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import math

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    p = jnp.clip((s - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    decay = base_lr * jnp.cos(0.5 * math.pi * p) ** 2
    if warmup_steps > 0:
        decay = jnp.where(s < warmup_steps, base_lr * s / warmup_steps, decay)
    return jnp.where(step > total_steps, jnp.float32(0.0), decay).astype(jnp.float32)
