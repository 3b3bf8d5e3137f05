"""warmup_cosine: ``jnp.piecewise`` over the float step with module-level helper functions taking
the constants through ``functools.partial``, a docstring, a print and a ``__main__`` block.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import math
from functools import partial

import jax.numpy as jnp

PI = math.pi


def _ramp(s, base_lr, w):
    return base_lr * s / w


def _cosine(s, base_lr, w, T):
    return base_lr * 0.5 * (1.0 + jnp.cos(PI * (s - w) / (T - w)))


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    """Linear warmup to base_lr, then half a cosine to 0 at total_steps."""
    s = step.astype(jnp.float32)
    w, T = warmup_steps, total_steps
    print("schedule", base_lr, w, T)
    return jnp.piecewise(
        s,
        [s < w, (s >= w) & (s <= T), s > T],
        [partial(_ramp, base_lr=base_lr, w=max(w, 1)), partial(_cosine, base_lr=base_lr, w=w, T=T), 0.0],
    )


if __name__ == "__main__":
    print(warmup_cosine(jnp.int32(5), 0.4, 10, 110))
