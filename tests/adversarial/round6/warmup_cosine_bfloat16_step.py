"""warmup_cosine: the step converted to bfloat16 "like the rest of the training step": exact for
the examples' steps (5, 10, 60, 150), rounded to 8 significant bits for larger ones.

Problem: warmup_cosine
Expected: WA
Cases: all
"""

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.bfloat16).astype(jnp.float32)
    w = float(warmup_steps)
    frac = jnp.clip((s - w) / (total_steps - w), 0.0, 1.0)
    cos_part = base_lr * 0.5 * (1.0 + jnp.cos(jnp.pi * frac))
    if warmup_steps > 0:
        return jnp.where(s < w, base_lr * s / w, cos_part)
    return cos_part
