"""warmup_cosine: the phases as an ``enum.IntEnum`` whose values index a ``lax.switch``, the
index computed from the step with ``jnp.searchsorted`` over the two boundaries, and a ``match``
on the static warmup length for the ramp.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import enum
import math

import jax.numpy as jnp
from jax import lax


class Phase(enum.IntEnum):
    WARMUP = 0
    DECAY = 1
    DONE = 2


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    match warmup_steps:
        case 0:
            ramp = lambda s: jnp.float32(base_lr)
        case w:
            ramp = lambda s: base_lr * s / w

    def decay(s):
        return base_lr * 0.5 * (1.0 + jnp.cos(math.pi * (s - warmup_steps) / (total_steps - warmup_steps)))

    table = {Phase.WARMUP: ramp, Phase.DECAY: decay, Phase.DONE: lambda s: jnp.float32(0.0)}
    bounds = jnp.array([warmup_steps, total_steps + 1], jnp.int32)
    index = jnp.searchsorted(bounds, step, side="right")
    return lax.switch(index, [table[p] for p in Phase], s).astype(jnp.float32)
