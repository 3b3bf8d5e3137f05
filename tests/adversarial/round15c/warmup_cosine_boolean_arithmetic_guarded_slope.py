"""warmup_cosine: the phases added up with boolean masks cast to float32 (a NumPy habit), the
warmup slope divided by ``max(warmup_steps, 1)`` so that no phase is infinite, the progress
clamped with ``jnp.clip(..., max=1.0)``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    in_warmup = (s < warmup_steps).astype(jnp.float32)
    in_decay = ((s >= warmup_steps) & (s <= total_steps)).astype(jnp.float32)
    warm = base_lr * s / max(warmup_steps, 1)
    progress = jnp.clip((s - warmup_steps) / (total_steps - warmup_steps), max=1.0)
    decay = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * progress))
    return in_warmup * warm + in_decay * decay
