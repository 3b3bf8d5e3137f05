"""warmup_cosine: a near miss: the warmup counted from one, ``(s + 1) / w`` (as schedules that
are called after the step is taken do), so the rate is not 0 at step 0.

Problem: warmup_cosine
Expected: WA
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    w, T = warmup_steps, total_steps
    warm = base_lr * (s + 1.0) / max(w, 1)
    cos = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * (s - w) / (T - w)))
    return jnp.where(s < w, warm, jnp.where(s <= T, cos, 0.0))
