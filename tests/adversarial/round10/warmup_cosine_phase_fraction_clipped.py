"""warmup_cosine: one fraction clipped to [0, 1] for the decay, the warmup ramp from
``jnp.minimum(step / w, 1)``, and the two phases joined by ``jnp.where(step < w, ...)``; the
angle ``jnp.pi * fraction``; a Python branch on ``warmup_steps == 0`` (a Python int).

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    frac = jnp.clip((s - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    decay = base_lr * 0.5 * (1.0 + jnp.cos(jnp.pi * frac))
    decay = jnp.where(s > total_steps, 0.0, decay)
    if warmup_steps == 0:
        return decay.astype(jnp.float32)
    ramp = base_lr * jnp.minimum(s / warmup_steps, 1.0)
    return jnp.where(s < warmup_steps, ramp, decay).astype(jnp.float32)
