"""warmup_cosine: the warmup of several libraries that count steps from 1, eta * (s + 1) / w,
so that the first step already has a nonzero rate: base_lr is reached one step early.

Problem: warmup_cosine
Expected: WA
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    warm = base_lr * jnp.minimum(s + 1, warmup_steps) / max(warmup_steps, 1)
    t = jnp.clip(s - warmup_steps, 0, total_steps - warmup_steps) / (total_steps - warmup_steps)
    cos = 0.5 * base_lr * (1 + jnp.cos(jnp.pi * t))
    return jnp.where(s < warmup_steps, warm, cos)
