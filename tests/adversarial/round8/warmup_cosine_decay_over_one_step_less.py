"""warmup_cosine: the decay divided by T - w - 1 (counting the decay's steps from w to T - 1),
clamped at 0 past the end: off by one against the statement's T - w.

Problem: warmup_cosine
Expected: WA
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    n = max(total_steps - warmup_steps - 1, 1)
    p = jnp.clip((s - warmup_steps) / n, 0.0, 1.0)
    warm = base_lr * s / max(warmup_steps, 1)
    return jnp.where(s < warmup_steps, warm, 0.5 * base_lr * (1 + jnp.cos(jnp.pi * p)))
