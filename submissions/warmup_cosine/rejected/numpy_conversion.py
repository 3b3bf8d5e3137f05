"""The step converted to a NumPy array and the schedule computed in NumPy.

Expected verdict: rejected (a traced value turned into a NumPy array).
"""
import jax.numpy as jnp
import numpy as np


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    t = np.asarray(step, dtype=np.float64)
    warm = base_lr * t / max(warmup_steps, 1)
    progress = np.clip((t - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    cosine = 0.5 * base_lr * (1.0 + np.cos(np.pi * progress))
    return jnp.float32(np.where(t < warmup_steps, warm, cosine))
