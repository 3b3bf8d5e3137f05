"""warmup_cosine: the warmup as ``jnp.interp`` of the step between ``jnp.array`` lists
``[0, warmup_steps]`` and ``[0, base_lr]`` (a Python branch on ``warmup_steps == 0``), the decay
as a cosine of a clipped fraction, the two joined with ``jnp.where``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    frac = jnp.clip((s - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    decay = base_lr * 0.5 * (1.0 + jnp.cos(jnp.pi * frac))
    if warmup_steps == 0:
        return decay
    warm = jnp.interp(s, jnp.array([0.0, float(warmup_steps)]), jnp.array([0.0, base_lr]))
    return jnp.where(s < warmup_steps, warm, decay)
