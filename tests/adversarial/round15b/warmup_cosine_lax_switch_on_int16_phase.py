"""warmup_cosine: the phase index computed as an int16 sum of two comparisons, cast to int32 and
given to ``jax.lax.switch`` with three branches (ramp, cosine, zero), each taking the step.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    w, T = warmup_steps, total_steps
    phase = (step >= w).astype(jnp.int16) + (step > T).astype(jnp.int16)

    def ramp(s):
        return base_lr * s.astype(jnp.float32) / max(w, 1)

    def cosine(s):
        p = (s - w).astype(jnp.float32) / (T - w)
        return base_lr * 0.5 * (1.0 + jnp.cos(jnp.pi * p))

    def zero(s):
        return jnp.zeros((), jnp.float32)

    return jax.lax.switch(phase.astype(jnp.int32), [ramp, cosine, zero], step)
