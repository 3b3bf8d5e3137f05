"""warmup_cosine: the step cast to float32, the warmup line and the cosine both computed and
chosen by ``jnp.where`` (the zero warmup handled by a Python ``if`` on the static int), past T
zero by a third ``where``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import math

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    decay_len = float(total_steps - warmup_steps)
    progress = (s - warmup_steps) / decay_len
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(math.pi * progress))
    lr = cosine
    if warmup_steps > 0:
        lr = jnp.where(s < warmup_steps, base_lr * s / warmup_steps, cosine)
    return jnp.where(s > total_steps, 0.0, lr).astype(jnp.float32)
