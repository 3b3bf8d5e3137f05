"""warmup_cosine: a frozen ``dataclasses.dataclass`` holding the schedule, its ``__call__``
choosing the formulas with ``jnp.where``; the zero warmup handled by a ``match`` statement on
the static int; a walrus in the cosine.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import dataclasses
import math

import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Schedule:
    base_lr: float
    warmup: int
    total: int

    def cosine(self, s):
        return 0.5 * self.base_lr * (1 + jnp.cos((frac := (s - self.warmup) / (self.total - self.warmup)) * math.pi))

    def __call__(self, step):
        s = step.astype(jnp.float32)
        match self.warmup:
            case 0:
                lr = self.cosine(s)
            case w:
                lr = jnp.where(s < w, self.base_lr * s / w, self.cosine(s))
        return jnp.where(s <= self.total, lr, jnp.zeros_like(lr))


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    return Schedule(base_lr, warmup_steps, total_steps)(step)
