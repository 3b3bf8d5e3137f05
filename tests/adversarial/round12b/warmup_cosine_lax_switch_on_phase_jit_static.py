"""warmup_cosine: ``jax.jit`` with the three hyperparameters static (``static_argnums``), the
phase index ``(step >= w) + (step > T)`` in int32 and ``lax.switch`` over three branches; the
decay's numerator subtracted in int32 before the cast.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnums=(1, 2, 3))
def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    w, T = warmup_steps, total_steps

    def warm(s):
        return base_lr * s.astype(jnp.float32) / max(w, 1)

    def cos(s):
        frac = (s - w).astype(jnp.float32) / (T - w)
        return base_lr * 0.5 * (1 + jnp.cos(jnp.pi * frac))

    def done(s):
        return jnp.float32(0.0)

    phase = (step >= w).astype(jnp.int32) + (step > T).astype(jnp.int32)
    return lax.switch(phase, [warm, cos, done], step)
