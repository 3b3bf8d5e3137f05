"""warmup_cosine: the angle written as pi s / (T - w) - pi w / (T - w), two large angles
subtracted: exact on paper, but when w is large next to T - w each term rounds by far more than
the tolerance allows (float32 carries about 7 digits of an angle of 10^5).

Problem: warmup_cosine
Expected: WA
Cases: all
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    span = jnp.float32(total_steps - warmup_steps)
    angle = jnp.pi * s / span - jnp.pi * warmup_steps / span
    cos = 0.5 * base_lr * (1.0 + jnp.cos(angle))
    warm = base_lr * s / max(warmup_steps, 1)
    return jnp.select([s < warmup_steps, s <= total_steps], [warm, cos], 0.0)
