"""warmup_cosine: the phase by ``jnp.digitize`` of the step against ``[w, T + 1]`` (right bins
closed at w, so s = w starts the cosine), ``lax.switch`` over a tuple of phase functions built by
a helper, the step converted with ``lax.convert_element_type``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import math

import jax.numpy as jnp
from jax import lax


def phases(base_lr, w, T):
    def warm(s):
        return base_lr * s / w if w else jnp.float32(0.0) * s

    def cosine(s):
        return base_lr * 0.5 * (1.0 + jnp.cos(math.pi * (s - w) / (T - w)))

    def done(s):
        return jnp.zeros_like(s)

    return warm, cosine, done


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = lax.convert_element_type(step, jnp.float32)
    index = jnp.digitize(step, jnp.array([warmup_steps, total_steps + 1]))
    return lax.switch(index, phases(base_lr, warmup_steps, total_steps), s)
