"""The cosine's progress counted from step 0 (step / total_steps) rather than from the end of
the warmup: the decay has already begun when the warmup ends.

Expected verdict: wrong answer.
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    t = step.astype(jnp.float32)
    warm = base_lr * t / max(warmup_steps, 1)
    progress = jnp.minimum(t / total_steps, 1.0)
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * progress))
    return jnp.where(t < warmup_steps, warm, cosine)
