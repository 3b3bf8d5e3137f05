"""warmup_cosine: a wrong honest form: the step cast to ``float16`` to save memory: steps above
2048 are rounded (and above 65504 are infinite), so the rate is off far beyond the tolerance.

Problem: warmup_cosine
Expected: WA
Cases: all
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float16).astype(jnp.float32)
    w, T = warmup_steps, total_steps
    warm = base_lr * s / max(w, 1)
    cos = 0.5 * base_lr * (1 + jnp.cos(jnp.pi * (s - w) / (T - w)))
    return jnp.where(s < w, warm, jnp.where(s > T, 0.0, cos)).astype(jnp.float32)
