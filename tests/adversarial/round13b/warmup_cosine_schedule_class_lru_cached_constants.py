"""warmup_cosine: a schedule class whose constants (the decay length, the warmup's slope) come
from a ``functools.lru_cache`` helper of the static numbers; ``__call__`` picks the phase with
``jnp.where`` on the int32 step.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import functools
import math

import jax.numpy as jnp


@functools.lru_cache(maxsize=None)
def constants(base_lr: float, warmup_steps: int, total_steps: int):
    slope = base_lr / warmup_steps if warmup_steps else 0.0
    return slope, float(total_steps - warmup_steps)


class WarmupCosine:
    def __init__(self, base_lr: float, warmup_steps: int, total_steps: int):
        self.base_lr, self.w, self.T = base_lr, warmup_steps, total_steps
        self.slope, self.span = constants(base_lr, warmup_steps, total_steps)

    def __call__(self, step):
        s = step.astype(jnp.float32)
        cos_part = 0.5 * self.base_lr * (1.0 + jnp.cos(math.pi * (s - self.w) / self.span))
        lr = jnp.where(step < self.w, self.slope * s, cos_part)
        return jnp.where(step > self.T, 0.0, lr).astype(jnp.float32)


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    return WarmupCosine(base_lr, warmup_steps, total_steps)(step)
