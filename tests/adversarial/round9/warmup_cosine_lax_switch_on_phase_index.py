"""warmup_cosine: the phase index computed as ``(s >= w).astype(int) + (s > T).astype(int)`` and
``lax.switch`` over three branch functions (warmup, cosine, zero); for w = 0 the warmup branch
is never chosen but the student guards its division with ``max(w, 1)`` (Python, static).

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    w, T = warmup_steps, total_steps

    def warm(s):
        return base_lr * s / max(w, 1)

    def cosine(s):
        return 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * (s - w) / (T - w)))

    def done(s):
        return jnp.float32(0.0)

    index = (step >= w).astype(jnp.int32) + (step > T).astype(jnp.int32)
    return lax.switch(index, [warm, cosine, done], s).astype(jnp.float32)
