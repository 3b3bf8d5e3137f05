"""warmup_cosine: a frozen ``dataclass`` ``WarmupCosine`` with a ``__call__``, the entry point a
``jax.jit`` with ``static_argnames`` for the three numbers; the warmup by ``jnp.interp`` over
``[0, w]``, the cosine's progress clipped to [0, 1], chosen with ``jnp.where``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class WarmupCosine:
    base_lr: float
    warmup_steps: int
    total_steps: int

    def __call__(self, step: jax.Array) -> jax.Array:
        s = step.astype(jnp.float32)
        w, T = self.warmup_steps, self.total_steps
        progress = jnp.clip((s - w) / (T - w), 0.0, 1.0)
        cosine = 0.5 * self.base_lr * (1.0 + jnp.cos(jnp.pi * progress))
        if w == 0:
            return cosine
        warm = jnp.interp(s, jnp.array([0.0, w]), jnp.array([0.0, self.base_lr]))
        return jnp.where(s < w, warm, cosine)


@partial(jax.jit, static_argnames=("base_lr", "warmup_steps", "total_steps"))
def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    return WarmupCosine(base_lr, warmup_steps, total_steps)(step)
