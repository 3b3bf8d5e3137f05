"""warmup_cosine: a frozen dataclass schedule whose ``__call__`` converts the step to float32 once
and picks the phase with ``jnp.select`` over three conditions (the cosine's fraction clipped so
the unused branch stays finite); ``w = 0`` handled by a Python branch on the static warmup.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import math
from dataclasses import dataclass

import jax.numpy as jnp


@dataclass(frozen=True)
class WarmupCosine:
    base_lr: float
    warmup: int
    total: int

    def __call__(self, step):
        s = step.astype(jnp.float32)
        frac = jnp.clip((s - self.warmup) / (self.total - self.warmup), 0.0, 1.0)
        cosine = self.base_lr * 0.5 * (1.0 + jnp.cos(math.pi * frac))
        if self.warmup == 0:
            ramp = jnp.float32(self.base_lr)
        else:
            ramp = self.base_lr * s / self.warmup
        return jnp.select([s < self.warmup, s <= self.total], [ramp, cosine], jnp.float32(0.0))


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    return WarmupCosine(base_lr, warmup_steps, total_steps)(step).astype(jnp.float32)
