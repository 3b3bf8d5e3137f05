"""warmup_cosine: honest code that clamps the int32 step to ``[0, T]`` with ``jnp.clip`` first (so
the decay's fraction never passes 1), does the phase tests on the int32 step, and the arithmetic
in float32.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import math

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s_int = jnp.clip(step, 0, total_steps)
    s = s_int.astype(jnp.float32)
    if warmup_steps > 0:
        warm = jnp.float32(base_lr) * s / jnp.float32(warmup_steps)
    else:
        warm = jnp.float32(base_lr)
    frac = (s - warmup_steps) / jnp.float32(total_steps - warmup_steps)
    decay = jnp.float32(base_lr) * 0.5 * (1.0 + jnp.cos(jnp.float32(math.pi) * frac))
    lr = jnp.where(s_int < warmup_steps, warm, decay)
    return jnp.where(step > total_steps, jnp.float32(0.0), lr)
