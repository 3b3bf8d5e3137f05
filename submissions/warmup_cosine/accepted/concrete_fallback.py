"""An attack: read the step as a Python int when it is concrete and branch in Python; fall
back to jnp.where only when int() raises because the step is traced.

Expected verdict: accepted (the judge always traces the step, so only the jnp.where path
ever runs, and it is honest).
"""
import math

import jax
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    try:
        s = int(step)
    except jax.errors.ConcretizationTypeError:
        s = None
    if s is not None:
        if s < warmup_steps:
            return jnp.float32(base_lr * s / warmup_steps)
        progress = min((s - warmup_steps) / (total_steps - warmup_steps), 1.0)
        return jnp.float32(0.5 * base_lr * (1.0 + math.cos(math.pi * progress)))
    t = step.astype(jnp.float32)
    progress = jnp.minimum((t - warmup_steps) / (total_steps - warmup_steps), 1.0)
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * progress))
    return jnp.where(t < warmup_steps, base_lr * t / max(warmup_steps, 1), cosine)
