"""warmup_cosine: w = 0 handled by using max(w, 1) everywhere, the phase test included: with no
warmup, step 0 is treated as a one-step warmup and gives lr = 0 instead of base_lr (and the decay
is counted from step 1).

Problem: warmup_cosine
Expected: WA
Cases: all
"""

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    w = max(warmup_steps, 1)
    s = step.astype(jnp.float32)
    progress = jnp.clip((s - w) / (total_steps - w), 0.0, 1.0)
    decay = 0.5 * base_lr * (1 + jnp.cos(jnp.pi * progress))
    return jnp.where(s < w, base_lr * s / w, decay)
