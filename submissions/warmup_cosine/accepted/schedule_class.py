"""A frozen dataclass holding the schedule's constants; calling it on a step gives the rate.

Expected verdict: accepted.
"""
import math
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class WarmupCosine:
    base_lr: float
    warmup_steps: int
    total_steps: int

    @property
    def decay_steps(self) -> int:
        return self.total_steps - self.warmup_steps

    def warmup(self, t: jax.Array) -> jax.Array:
        return self.base_lr * t / max(self.warmup_steps, 1)

    def decay(self, t: jax.Array) -> jax.Array:
        done = jnp.clip(t - self.warmup_steps, 0.0, self.decay_steps)
        return 0.5 * self.base_lr * (1.0 + jnp.cos(math.pi / self.decay_steps * done))

    def __call__(self, step: jax.Array) -> jax.Array:
        t = step.astype(jnp.float32)
        return jnp.where(t < self.warmup_steps, self.warmup(t), self.decay(t))


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    return WarmupCosine(base_lr, warmup_steps, total_steps)(step)
