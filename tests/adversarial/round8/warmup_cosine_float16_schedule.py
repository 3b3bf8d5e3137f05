"""warmup_cosine: the schedule computed in float16 "to save memory" and cast back to float32:
float16 holds steps only up to 2048 exactly, and its cosine is off by far more than 1e-5.

Problem: warmup_cosine
Expected: WA
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    h = jnp.float16
    s = step.astype(h)
    warm = h(base_lr) * s / h(max(warmup_steps, 1))
    p = jnp.clip((s - h(warmup_steps)) / h(total_steps - warmup_steps), 0, 1)
    cos = h(0.5 * base_lr) * (1 + jnp.cos(h(jnp.pi) * p))
    return jnp.where(s < warmup_steps, warm, cos).astype(jnp.float32)
