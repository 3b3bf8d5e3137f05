"""A cosine written as cos(pi / 2 * progress) and never clamped: it matches 0 at total_steps
but the rate turns negative after it (and the shape of the decay is wrong before it).

Expected verdict: wrong answer.
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    t = step.astype(jnp.float32)
    warm = base_lr * t / max(warmup_steps, 1)
    progress = (t - warmup_steps) / (total_steps - warmup_steps)
    return jnp.where(t < warmup_steps, warm, base_lr * jnp.cos(jnp.pi / 2 * progress))
