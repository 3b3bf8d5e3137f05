"""warmup_cosine: the warmup as ``jnp.interp`` between (0, 0) and (w, base_lr), the decay as
base_lr * cos^2(pi p / 2) (the same as (1 + cos(pi p)) / 2), p clipped to [0, 1]; a Python
branch on the static w == 0.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import math

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    p = jnp.clip((s - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    decay = base_lr * jnp.square(jnp.cos(0.5 * math.pi * p))
    if warmup_steps == 0:
        return decay
    warm = jnp.interp(s, jnp.array([0.0, warmup_steps]), jnp.array([0.0, base_lr]))
    return jnp.where(s < warmup_steps, warm, decay).astype(jnp.float32)
