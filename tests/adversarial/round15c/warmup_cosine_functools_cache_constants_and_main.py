"""warmup_cosine: the schedule's Python constants (the warmup slope and the inverse span) computed
by a ``functools.cache``d helper of the three static numbers, ``jnp.float32`` casts, the
phases by ``jnp.select`` on a list of conditions, a docstring and a ``__main__`` self-test.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import functools
import math

import jax.numpy as jnp


@functools.cache
def _constants(base_lr, warmup_steps, total_steps):
    slope = base_lr / warmup_steps if warmup_steps else 0.0
    return slope, 1.0 / (total_steps - warmup_steps)


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    """Linear warmup to base_lr, then half a cosine down to 0 at total_steps."""
    slope, inv_span = _constants(base_lr, warmup_steps, total_steps)
    s = jnp.float32(step)
    frac = (s - jnp.float32(warmup_steps)) * jnp.float32(inv_span)
    cosine = jnp.float32(0.5 * base_lr) * (1.0 + jnp.cos(jnp.float32(math.pi) * frac))
    return jnp.select([s < warmup_steps, s <= total_steps],
                      [jnp.float32(slope) * s, cosine], jnp.float32(0.0))


if __name__ == "__main__":
    for i in (0, 5, 10, 55, 100, 120):
        print(i, warmup_cosine(jnp.int32(i), 1.0, 10, 100))
