"""warmup_cosine: ``from __future__ import annotations`` with ``jax.Array`` hints, the warmup and
the decay as two functions of the float step chosen by ``jax.lax.cond(s < w, ...)``, the decay
clamped past the end with ``jnp.clip(progress, min=0.0, max=1.0)``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
from __future__ import annotations

import jax
import jax.numpy as jnp


def warmup_cosine(step: jax.Array, base_lr: float, warmup_steps: int,
                  total_steps: int) -> jax.Array:
    s = jnp.float32(step)

    def warm(s: jax.Array) -> jax.Array:
        return base_lr * s / max(warmup_steps, 1)

    def decay(s: jax.Array) -> jax.Array:
        progress = jnp.clip((s - warmup_steps) / (total_steps - warmup_steps), min=0.0, max=1.0)
        return 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * progress))

    return jax.lax.cond(s < warmup_steps, warm, decay, s)
