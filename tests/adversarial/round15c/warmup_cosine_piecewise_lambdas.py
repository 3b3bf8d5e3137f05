"""warmup_cosine: ``jnp.piecewise`` on the float step with the warmup and the cosine as lambdas
and ``0.0`` after the end (the conditions built from the static numbers; with no warmup the
first condition is never true), cast back with ``jnp.float32``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import math

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    w, T = warmup_steps, total_steps
    warm = lambda t: base_lr * t / max(w, 1)
    cosine = lambda t: 0.5 * base_lr * (1.0 + jnp.cos(math.pi * (t - w) / (T - w)))
    lr = jnp.piecewise(s, [s < w, (s >= w) & (s <= T)], [warm, cosine, 0.0])
    return jnp.float32(lr)
