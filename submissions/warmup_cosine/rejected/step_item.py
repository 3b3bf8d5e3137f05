"""step.item() to read the step as a Python number.

Expected verdict: rejected (a traced value turned into a Python number).
"""
import math

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.item()
    if s < warmup_steps:
        return jnp.float32(base_lr * s / warmup_steps)
    progress = min((s - warmup_steps) / (total_steps - warmup_steps), 1.0)
    return jnp.float32(0.5 * base_lr * (1.0 + math.cos(math.pi * progress)))
