"""An attack: jax.experimental.io_callback instead of pure_callback, the schedule computed in
Python on the concrete step. jax.experimental is refused by the source gate; without it the
callback is found in the traced program.

Expected verdict: rejected (forbidden_construct with the gate, callback_used without it).
"""
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    def schedule(s):
        s = int(s)
        if s < warmup_steps:
            return np.float32(base_lr * s / warmup_steps)
        progress = min((s - warmup_steps) / (total_steps - warmup_steps), 1.0)
        return np.float32(0.5 * base_lr * (1.0 + math.cos(math.pi * progress)))

    return io_callback(schedule, jax.ShapeDtypeStruct((), jnp.float32), step)
