"""warmup_cosine: the phases as a sum weighted by 0/1 indicators instead of a ``where``: the
warmup ``s / w`` is NaN when ``w = 0`` (0 / 0 at step 0), and NaN times a zero indicator is
still NaN.

Problem: warmup_cosine
Expected: WA
Cases: all
"""
import math

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    in_warmup = (s < warmup_steps).astype(jnp.float32)
    in_decay = ((s >= warmup_steps) & (s <= total_steps)).astype(jnp.float32)
    warm = base_lr * s / jnp.float32(warmup_steps)
    cos = base_lr * 0.5 * (1 + jnp.cos(math.pi * (s - warmup_steps) / (total_steps - warmup_steps)))
    return in_warmup * warm + in_decay * cos
