"""warmup_cosine: honest code: nested ``jax.lax.cond``s with lambdas whose predicates compare the
int32 step with the int boundaries, and the decay's numerator subtracted in int32 before the
cast.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    w, T = warmup_steps, total_steps

    def warm(s):
        return base_lr * s.astype(jnp.float32) / w

    def decay(s):
        frac = (s - w).astype(jnp.float32) / (T - w)
        return 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * frac))

    def after(s):
        return jax.lax.cond(s > T, lambda _: jnp.float32(0.0), decay, s)

    return jax.lax.cond(step < w, warm, after, step).astype(jnp.float32)
