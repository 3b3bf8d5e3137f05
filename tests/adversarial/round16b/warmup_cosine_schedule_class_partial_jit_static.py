"""warmup_cosine: honest code with a schedule class (``__call__``, the boundaries plain
attributes), the body under ``functools.partial(jax.jit, static_argnames=...)``, and the phase
fractions clipped to ``[0, 1]`` instead of branches.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("base_lr", "warmup_steps", "total_steps"))
def _lr(step, base_lr, warmup_steps, total_steps):
    s = jnp.asarray(step, dtype=jnp.float32)
    if warmup_steps > 0:
        ramp = jnp.clip(s / warmup_steps, 0.0, 1.0)
    else:
        ramp = jnp.float32(1.0)
    frac = jnp.clip((s - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    return base_lr * ramp * 0.5 * (1.0 + jnp.cos(jnp.pi * frac))


class WarmupCosine:
    def __init__(self, base_lr, warmup_steps, total_steps):
        self.base_lr, self.warmup_steps, self.total_steps = base_lr, warmup_steps, total_steps

    def __call__(self, step):
        return _lr(step, self.base_lr, self.warmup_steps, self.total_steps)


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    return WarmupCosine(base_lr, warmup_steps, total_steps)(step)
