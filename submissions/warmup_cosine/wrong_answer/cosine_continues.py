"""The progress is never clamped: after total_steps the cosine keeps going and the rate rises
again instead of staying at 0.

Expected verdict: wrong answer.
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    t = step.astype(jnp.float32)
    warm = base_lr * t / max(warmup_steps, 1)
    progress = (t - warmup_steps) / (total_steps - warmup_steps)
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * progress))
    return jnp.where(t < warmup_steps, warm, cosine)
