"""Off by one: the warmup divides by warmup_steps - 1, so it reaches base_lr at step
warmup_steps - 1 instead of at warmup_steps.

Expected verdict: wrong answer.
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    t = step.astype(jnp.float32)
    warm = base_lr * jnp.minimum(t / max(warmup_steps - 1, 1), 1.0)
    progress = jnp.minimum((t - warmup_steps) / (total_steps - warmup_steps), 1.0)
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * progress))
    return jnp.where(t < warmup_steps, warm, cosine)
