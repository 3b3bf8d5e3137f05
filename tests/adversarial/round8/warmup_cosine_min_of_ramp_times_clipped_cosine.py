"""warmup_cosine: one expression, no selection: min(s / w, 1) times the cosine of the clipped
progress (which is 1 throughout the warmup and 0 past T); w = 0 handled by a static branch.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = jnp.asarray(step, jnp.float32)
    ramp = jnp.minimum(s / warmup_steps, 1.0) if warmup_steps > 0 else jnp.float32(1.0)
    progress = jnp.clip((s - warmup_steps) / float(total_steps - warmup_steps), 0.0, 1.0)
    return base_lr * ramp * 0.5 * (1.0 + jnp.cos(jnp.pi * progress))
