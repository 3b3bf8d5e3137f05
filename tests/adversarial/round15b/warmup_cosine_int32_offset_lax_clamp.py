"""warmup_cosine: the step's offset from the warmup taken in int32 (``step - w``) and clamped to
``[0, T - w]`` with ``jax.lax.clamp`` before the cast, the warmup fraction clamped the same way;
the phases joined with ``jnp.where``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    w, T = warmup_steps, total_steps
    offset = jax.lax.clamp(jnp.int32(0), step - w, jnp.int32(T - w)).astype(jnp.float32)
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * offset / (T - w)))
    ramp = base_lr * step.astype(jnp.float32) / max(w, 1)
    lr = jnp.where(step < w, ramp, cosine)
    return jnp.where(step > T, jnp.float32(0.0), lr).astype(jnp.float32)
