"""warmup_cosine: the three phases' values in ``jnp.stack`` of a list comprehension over a fixed
tuple of functions, the phase's index the sum of two comparisons, the value read with
``values[index]``; the warmup's ``0 / 0`` at ``warmup_steps = 0`` is never the one indexed.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    phases = (
        lambda s: base_lr * s / warmup_steps if warmup_steps else jnp.float32(0.0),
        lambda s: 0.5 * base_lr * (1 + jnp.cos(jnp.pi * (s - warmup_steps) / (total_steps - warmup_steps))),
        lambda s: jnp.zeros_like(s),
    )
    values = jnp.stack([jnp.asarray(phase(s), jnp.float32) for phase in phases])
    index = (step >= warmup_steps).astype(jnp.int32) + (step > total_steps).astype(jnp.int32)
    return values[index]
