"""jnp.piecewise with one function per phase; the last function is the default (after
total_steps).

Expected verdict: accepted.
"""
import math

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    span = total_steps - warmup_steps
    t = jnp.asarray(step, jnp.float32)
    return jnp.piecewise(
        t,
        [t < warmup_steps, (t >= warmup_steps) & (t <= total_steps)],
        [lambda s: base_lr * s / warmup_steps,
         lambda s: 0.5 * base_lr * (1.0 + jnp.cos(math.pi * (s - warmup_steps) / span)),
         lambda s: jnp.zeros_like(s)],
    )
