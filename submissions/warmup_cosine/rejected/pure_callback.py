"""The schedule computed in Python on the concrete step through jax.pure_callback.

Expected verdict: rejected (callbacks are not allowed).
"""
import math

import jax
import jax.numpy as jnp
import numpy as np


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    def schedule(s):
        s = int(s)
        if s < warmup_steps:
            return np.float32(base_lr * s / warmup_steps)
        progress = min((s - warmup_steps) / (total_steps - warmup_steps), 1.0)
        return np.float32(0.5 * base_lr * (1.0 + math.cos(math.pi * progress)))

    return jax.pure_callback(schedule, jax.ShapeDtypeStruct((), jnp.float32), step)
