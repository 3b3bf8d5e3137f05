"""The steps into the decay divided by total_steps instead of total_steps - warmup_steps (the
length of the decay): the cosine is too slow and is not 0 at total_steps.

Expected verdict: wrong answer.
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    t = step.astype(jnp.float32)
    warm = base_lr * t / max(warmup_steps, 1)
    progress = jnp.minimum((t - warmup_steps) / total_steps, 1.0)
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * progress))
    return jnp.where(t < warmup_steps, warm, cosine)
