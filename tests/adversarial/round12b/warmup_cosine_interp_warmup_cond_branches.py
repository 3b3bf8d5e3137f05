"""warmup_cosine: the warmup by ``jnp.interp`` between (0, 0) and (w, η) when w > 0, the phases
chosen by ``lax.cond`` whose branches return Python floats or float32 arrays (JAX's weak types
reconciled), the cosine ``jnp.cos`` of a clipped fraction.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = jnp.float32(step)
    w, T = warmup_steps, total_steps

    def warm(s):
        return jnp.interp(s, jnp.array([0.0, w]), jnp.array([0.0, base_lr]))

    def cosine(s):
        frac = jnp.clip((s - w) / (T - w), 0.0, 1.0)
        return base_lr * 0.5 * (1.0 + jnp.cos(jnp.pi * frac))

    if w == 0:
        return cosine(s)
    return jax.lax.cond(s < w, warm, cosine, s)
