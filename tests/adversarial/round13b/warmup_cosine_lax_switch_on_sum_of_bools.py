"""warmup_cosine: the phase index as the sum of two comparisons (``step >= w`` and ``step > T``,
cast to int32) choosing one of three branches with ``lax.switch``; ``w = 0`` handled by a Python
branch on the static value.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import math

import jax
import jax.numpy as jnp
from jax import lax


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)

    def warm(s):
        return base_lr * s / warmup_steps if warmup_steps > 0 else jnp.float32(base_lr)

    def decay(s):
        progress = (s - warmup_steps) / (total_steps - warmup_steps)
        return base_lr * 0.5 * (1.0 + jnp.cos(math.pi * progress))

    def done(s):
        return jnp.float32(0.0)

    index = (step >= warmup_steps).astype(jnp.int32) + (step > total_steps).astype(jnp.int32)
    return lax.switch(index, [warm, decay, done], s).astype(jnp.float32)
