"""math.cos on the traced progress: the math module needs a Python float.

Expected verdict: rejected (a traced value turned into a Python number).
"""
import math

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    t = step.astype(jnp.float32)
    progress = jnp.clip((t - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    cosine = 0.5 * base_lr * (1.0 + math.cos(math.pi * progress))
    return jnp.where(t < warmup_steps, base_lr * t / max(warmup_steps, 1), cosine)
