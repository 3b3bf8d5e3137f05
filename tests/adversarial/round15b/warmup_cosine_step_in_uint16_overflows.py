"""warmup_cosine: a near miss: the step cast to uint16 to save space, which wraps above 65535
(steps go to a million): the cosine is taken at the wrong step on the late cases.

Problem: warmup_cosine
Expected: WA
Cases: all
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.uint16).astype(jnp.float32)
    w, T = warmup_steps, total_steps
    ramp = base_lr * s / max(w, 1)
    cos = base_lr * 0.5 * (1 + jnp.cos(jnp.pi * jnp.clip((s - w) / (T - w), 0.0, 1.0)))
    return jnp.where(s < w, ramp, jnp.where(s <= T, cos, 0.0)).astype(jnp.float32)
