"""warmup_cosine: the cosine's progress clipped to [0, 1] with ``jnp.clip`` (so past T it is
1 and the cosine gives 0 by itself), the warmup factor ``jnp.minimum(1, s / w)`` multiplied in;
a module-level constant for pi, keyword defaults.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax.numpy as jnp

PI = 3.141592653589793


def warmup_cosine(step, base_lr=1.0, warmup_steps=0, total_steps=1):
    s = jnp.asarray(step, jnp.float32)
    progress = jnp.clip((s - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    lr = base_lr * 0.5 * (1.0 + jnp.cos(PI * progress))
    if warmup_steps:
        lr = lr * jnp.minimum(1.0, s / warmup_steps)
    return lr
