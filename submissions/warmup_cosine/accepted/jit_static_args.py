"""jax.jit with the three Python numbers static; the progress is clamped with jnp.minimum.

Expected verdict: accepted.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("base_lr", "warmup_steps", "total_steps"))
def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    t = step.astype(jnp.float32)
    in_warmup = t < warmup_steps
    safe = max(warmup_steps, 1)
    progress = jnp.minimum((t - warmup_steps) / (total_steps - warmup_steps), 1.0)
    return jnp.where(in_warmup, base_lr * t / safe,
                     base_lr * 0.5 * (1.0 + jnp.cos(jnp.pi * progress)))
