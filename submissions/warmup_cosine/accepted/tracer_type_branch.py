"""An attack: a branch on whether the step is a tracer (by its type's name), with Python
arithmetic on the concrete value and jnp.where only for tracers.

Expected verdict: accepted (the judge always traces the step; the concrete branch never runs
there).
"""
import math

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    if "Tracer" not in type(step).__name__:
        s = int(step)
        if s < warmup_steps:
            return jnp.float32(base_lr * s / warmup_steps)
        progress = min((s - warmup_steps) / (total_steps - warmup_steps), 1.0)
        return jnp.float32(0.5 * base_lr * (1.0 + math.cos(math.pi * progress)))
    t = step.astype(jnp.float32)
    progress = jnp.clip((t - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * progress))
    return jnp.where(t < warmup_steps, base_lr * t / max(warmup_steps, 1), cosine)
