"""The schedule vmapped over a batch of one step, and the batch returned: the right value in
an array of shape (1,) instead of a scalar of shape ().

Expected verdict: wrong answer.
"""
import jax
import jax.numpy as jnp


def _lr(t, base_lr, warmup_steps, total_steps):
    progress = jnp.clip((t - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * progress))
    return jnp.where(t < warmup_steps, base_lr * t / max(warmup_steps, 1), cosine)


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    steps = jnp.atleast_1d(step).astype(jnp.float32)
    return jax.vmap(lambda t: _lr(t, base_lr, warmup_steps, total_steps))(steps)
