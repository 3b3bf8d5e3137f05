"""Python's min() to clamp the traced step: min compares its arguments, and Python needs the
truth of that comparison.

Expected verdict: rejected (a traced value turned into a Python bool).
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    t = step.astype(jnp.float32)
    done = min(max(t - warmup_steps, 0.0), total_steps - warmup_steps)
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * done / (total_steps - warmup_steps)))
    return jnp.where(t < warmup_steps, base_lr * t / max(warmup_steps, 1), cosine)
