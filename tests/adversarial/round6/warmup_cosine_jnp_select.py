"""warmup_cosine: ``jnp.select`` over the three phases' conditions (the default 0 after
total_steps), the warmup divided by a Python max(w, 1).

Problem: warmup_cosine
Expected: AC
"""

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    warm = base_lr * s / max(warmup_steps, 1)
    decay = base_lr * 0.5 * (1 + jnp.cos(jnp.pi * (s - warmup_steps) /
                                         (total_steps - warmup_steps)))
    return jnp.select([step < warmup_steps, step <= total_steps], [warm, decay], 0.0)
