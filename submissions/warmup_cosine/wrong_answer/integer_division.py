"""step // warmup_steps on int32: the warmup fraction is truncated to 0 at every warmup step.

Expected verdict: wrong answer.
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    warm = base_lr * (step // max(warmup_steps, 1))
    progress = jnp.minimum((step - warmup_steps) / (total_steps - warmup_steps), 1.0)
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * progress))
    return jnp.where(step < warmup_steps, warm, cosine).astype(jnp.float32)
