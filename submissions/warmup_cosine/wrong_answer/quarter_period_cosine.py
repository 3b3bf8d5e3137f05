"""cos(pi / 2 * progress) inside 0.5 * (1 + ...): the factor only falls from 1 to 0.5, so the
rate ends at base_lr / 2 instead of 0.

Expected verdict: wrong answer.
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    t = step.astype(jnp.float32)
    warm = base_lr * t / max(warmup_steps, 1)
    progress = jnp.clip((t - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi / 2 * progress))
    return jnp.where(t < warmup_steps, warm, cosine)
