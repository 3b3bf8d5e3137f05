"""warmup_cosine: the phases an ``enum.IntEnum`` class, chosen per step with ``jnp.select`` into
``lax.switch``; a ``match`` statement on the static (warmup_steps, total_steps) pair picks the
warmup's formula (none when w = 0), with a ``typing.NamedTuple`` config.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import enum
import math
from typing import NamedTuple

import jax.numpy as jnp
from jax import lax


class Phase(enum.IntEnum):
    WARMUP = 0
    DECAY = 1
    DONE = 2


class Schedule(NamedTuple):
    base_lr: float
    warmup: int
    total: int


def _warm(cfg: Schedule):
    match (cfg.warmup, cfg.total):
        case (0, _):
            return lambda s: jnp.float32(0.0)
        case (w, _):
            return lambda s: cfg.base_lr * s / w


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    cfg = Schedule(base_lr, warmup_steps, total_steps)
    s = step.astype(jnp.float32)
    phase = jnp.select([step < cfg.warmup, step <= cfg.total],
                       [int(Phase.WARMUP), int(Phase.DECAY)], int(Phase.DONE))

    def decay(s):
        p = (s - cfg.warmup) / (cfg.total - cfg.warmup)
        return 0.5 * cfg.base_lr * (1.0 + jnp.cos(math.pi * p))

    branches = [_warm(cfg), decay, lambda s: jnp.float32(0.0)]
    return lax.switch(phase, [lambda s, f=f: jnp.asarray(f(s), jnp.float32) for f in branches], s)
