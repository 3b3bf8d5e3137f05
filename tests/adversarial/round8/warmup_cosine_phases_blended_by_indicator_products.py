"""warmup_cosine: the phases blended as sums of products with 0/1 indicators instead of a
selection: (s < w) * eta * s / w + (w <= s <= T) * cosine. At w = 0 the warmup term is
s / 0, inf (or NaN at s = 0), and inf * 0 is NaN: the statement's w = 0 (no warmup) breaks it.

Problem: warmup_cosine
Expected: WA
Cases: all
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    in_warmup = (s < warmup_steps).astype(jnp.float32)
    in_decay = ((s >= warmup_steps) & (s <= total_steps)).astype(jnp.float32)
    warm = base_lr * s / jnp.float32(warmup_steps)
    cosine = 0.5 * base_lr * (1 + jnp.cos(jnp.pi * (s - warmup_steps) / (total_steps - warmup_steps)))
    return in_warmup * warm + in_decay * cosine
