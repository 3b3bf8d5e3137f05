"""No selection at all: the warmup fraction and the decay progress are each clipped to
[0, 1] and the learning rate is their product with base_lr (the progress is 0 during the
warmup, the warmup fraction 1 after it).

Expected verdict: accepted.
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    t = step.astype(jnp.float32)
    if warmup_steps > 0:  # a Python int: a branch on it is fine
        warm = jnp.clip(t / warmup_steps, 0.0, 1.0)
    else:
        warm = 1.0
    progress = jnp.clip((t - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    return base_lr * warm * (0.5 * (1.0 + jnp.cos(jnp.pi * progress)))
