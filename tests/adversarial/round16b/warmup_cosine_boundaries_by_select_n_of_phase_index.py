"""warmup_cosine: honest code: a phase index (0 warmup, 1 decay, 2 done) counted from two int
comparisons, and ``lax.select_n`` between the three phases' values.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    w, T = warmup_steps, total_steps
    phase = (step >= w).astype(jnp.int32) + (step > T).astype(jnp.int32)
    s = step.astype(jnp.float32)
    warm = base_lr * s / max(w, 1)
    frac = (s - w) / (T - w)
    cos = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * frac))
    return jax.lax.select_n(phase, warm, cos, jnp.zeros_like(cos))
