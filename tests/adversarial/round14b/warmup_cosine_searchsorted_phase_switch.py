"""warmup_cosine: the phase found with ``jnp.searchsorted`` of the step in the boundaries
``[w, T + 1]`` (0 warmup, 1 cosine, 2 after), then ``jax.lax.switch`` over three branch
functions; with w = 0 the warmup branch is never chosen.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import math

import jax
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    w, T = warmup_steps, total_steps
    phase = jnp.searchsorted(jnp.array([w, T + 1], jnp.int32), step, side="right")

    def warm(s):
        return base_lr * s.astype(jnp.float32) / max(w, 1)

    def cosine(s):
        frac = (s - w).astype(jnp.float32) / (T - w)
        return 0.5 * base_lr * (1.0 + jnp.cos(math.pi * frac))

    def after(s):
        return jnp.zeros((), jnp.float32)

    return jax.lax.switch(phase, [warm, cosine, after], step)
