"""warmup_cosine: the phase found by a ``lax.while_loop`` that walks the boundaries (0, w, T) and
stops at the first one above the step, then ``lax.switch`` on it; the step is never a Python
value.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    bounds = jnp.array([warmup_steps, total_steps + 1], jnp.int32)

    def cond(i):
        return (i < 2) & (step >= bounds[jnp.minimum(i, 1)])

    phase = lax.while_loop(cond, lambda i: i + 1, jnp.int32(0))
    s = step.astype(jnp.float32)

    def warm(s):
        return base_lr * s / warmup_steps if warmup_steps else jnp.float32(0.0)

    def cos(s):
        p = (s - warmup_steps) / (total_steps - warmup_steps)
        return jnp.float32(0.5 * base_lr) * (1 + jnp.cos(jnp.pi * p))

    def done(s):
        return jnp.float32(0.0)

    return lax.switch(phase, [warm, cos, done], s)
