"""warmup_cosine: written with ``lax`` primitives only (``lax.lt``, ``lax.select``, ``lax.cos``,
``lax.convert_element_type``), the angle per step precomputed in Python as pi / (T - w) and the
warmup slope as base_lr / w, both float32 constants.

Problem: warmup_cosine
Expected: AC
"""

import math

import jax.numpy as jnp
from jax import lax


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    f32 = jnp.float32
    s = lax.convert_element_type(step, f32)
    rad_per_step = f32(math.pi / (total_steps - warmup_steps))
    slope = f32(base_lr / warmup_steps) if warmup_steps else f32(0.0)
    off = lax.max(lax.sub(s, f32(warmup_steps)), f32(0.0))
    off = lax.min(off, f32(total_steps - warmup_steps))
    cosine = f32(0.5 * base_lr) * (f32(1.0) + lax.cos(lax.mul(off, rad_per_step)))
    warm = lax.mul(s, slope)
    return lax.select(lax.lt(step, jnp.int32(warmup_steps)), warm, cosine)
