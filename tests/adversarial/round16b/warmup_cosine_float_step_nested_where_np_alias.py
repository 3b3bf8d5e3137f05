"""warmup_cosine: honest code: the step converted to float32 first, the phases chosen by nested
``jnp.where``s with a safe denominator for the warmup, ``jax.numpy`` imported as ``np``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import math

import jax.numpy as np


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = np.asarray(step, dtype=np.float32)
    w = float(warmup_steps)
    T = float(total_steps)
    warm = base_lr * s / max(w, 1.0)
    frac = (s - w) / (T - w)
    cosine = 0.5 * base_lr * (1.0 + np.cos(math.pi * frac))
    return np.where(s < w, warm, np.where(s <= T, cosine, 0.0)).astype(np.float32)
