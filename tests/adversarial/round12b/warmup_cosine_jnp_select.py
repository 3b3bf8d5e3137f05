"""warmup_cosine: ``jnp.select`` over the conditions ``s < w`` and ``s <= T`` with the warmup
line and the cosine, default 0; the warmup line's division guarded with ``max(w, 1)``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = jnp.asarray(step).astype(jnp.float32)
    w, T = warmup_steps, total_steps
    warm = base_lr * s / max(w, 1)
    cos = base_lr * 0.5 * (1.0 + jnp.cos(jnp.pi * (s - w) / (T - w)))
    return jnp.select([s < w, s <= T], [warm, cos], 0.0)
