"""An attack: jax.debug.callback storing the concrete step in a list, then reading it back
in Python to branch.

Expected verdict: rejected (callbacks are not allowed; at trace time the list is empty anyway).
"""
import jax
import jax.numpy as jnp

_seen = []


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    jax.debug.callback(lambda s: _seen.append(int(s)), step)
    s = _seen[-1] if _seen else 0
    t = step.astype(jnp.float32)
    progress = jnp.clip((t - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * progress))
    warm = base_lr * t / max(warmup_steps, 1)
    return warm if s < warmup_steps else cosine
