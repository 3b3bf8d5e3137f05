"""warmup_cosine: nested ``lax.cond`` on the traced step, the decay written with the identity
(1 + cos(pi p)) / 2 = cos(pi p / 2)^2 and ``jnp.square``, the warmup with ``jnp.interp``.

Problem: warmup_cosine
Expected: AC
"""

import jax.numpy as jnp
from jax import lax


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = jnp.asarray(step, jnp.float32)

    def warm(v):
        return jnp.interp(v, jnp.array([0.0, float(warmup_steps)]), jnp.array([0.0, base_lr]))

    def decay(v):
        p = (v - warmup_steps) / (total_steps - warmup_steps)
        return base_lr * jnp.square(jnp.cos(0.5 * jnp.pi * p))

    def after_warmup(v):
        return lax.cond(v > total_steps, lambda u: jnp.float32(0.0), decay, v)

    return lax.cond(s < warmup_steps, warm, after_warmup, s).astype(jnp.float32)
