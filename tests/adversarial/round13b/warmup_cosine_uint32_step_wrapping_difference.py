"""warmup_cosine: the step converted to ``uint32`` and ``step - w`` taken in uint32 (it wraps
below the warmup, where the cosine branch is not chosen), then converted to float32; the
phases chosen with ``jnp.select``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import math

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.uint32)
    since = (s - jnp.uint32(warmup_steps)).astype(jnp.float32)
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(math.pi * since / (total_steps - warmup_steps)))
    warm = base_lr * s.astype(jnp.float32) / max(warmup_steps, 1)
    return jnp.select([s < warmup_steps, s <= total_steps], [warm, cosine],
                      jnp.float32(0.0)).astype(jnp.float32)
