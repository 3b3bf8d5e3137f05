"""warmup_cosine: a Keras-style ``LearningRateSchedule`` subclass with ``__call__(step)`` and
``get_config``, an ``enum.IntEnum`` of the phases picked with ``jnp.select`` on the step.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import enum

import jax.numpy as jnp


class Phase(enum.IntEnum):
    WARMUP = 0
    DECAY = 1
    DONE = 2


class LearningRateSchedule:
    def __call__(self, step):
        raise NotImplementedError


class WarmupCosine(LearningRateSchedule):
    def __init__(self, base_lr, warmup_steps, total_steps):
        self.base_lr = base_lr
        self.warmup_steps = warmup_steps
        self.total_steps = total_steps

    def get_config(self):
        return {"base_lr": self.base_lr, "warmup_steps": self.warmup_steps,
                "total_steps": self.total_steps}

    def phase(self, step):
        return jnp.select([step < self.warmup_steps, step <= self.total_steps],
                          [int(Phase.WARMUP), int(Phase.DECAY)], int(Phase.DONE))

    def __call__(self, step):
        s = jnp.asarray(step, jnp.float32)
        warm = self.base_lr * s / max(self.warmup_steps, 1)
        frac = (s - self.warmup_steps) / (self.total_steps - self.warmup_steps)
        decay = 0.5 * self.base_lr * (1 + jnp.cos(jnp.pi * frac))
        p = self.phase(step)
        return jnp.select([p == Phase.WARMUP, p == Phase.DECAY], [warm, decay], 0.0)


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    return WarmupCosine(base_lr, warmup_steps, total_steps)(step).astype(jnp.float32)
