"""An attack (or a style): every rate from step 0 to total_steps precomputed in NumPy float64
from the Python numbers, and the traced step only used as an index into that table (clamped,
since the rate stays 0 past total_steps). The traced value is never made concrete.

Expected verdict: accepted.
"""
import jax.numpy as jnp
import numpy as np


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = np.arange(total_steps + 1, dtype=np.float64)
    warm = base_lr * s / max(warmup_steps, 1)
    progress = np.clip((s - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    table = np.where(s < warmup_steps, warm, 0.5 * base_lr * (1.0 + np.cos(np.pi * progress)))
    return jnp.asarray(table, jnp.float32)[jnp.minimum(step, total_steps)]
