"""A schedule written for a batch of steps (as one might to plot it), applied to the one step
by adding and removing a batch axis; the per-step rule is vmapped.

Expected verdict: accepted.
"""
import jax
import jax.numpy as jnp


def _lr(t, base_lr, warmup_steps, total_steps):
    progress = jnp.clip((t - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    cosine = base_lr / 2 * (1 + jnp.cos(jnp.pi * progress))
    return jnp.where(t < warmup_steps, base_lr * t / jnp.maximum(warmup_steps, 1), cosine)


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    steps = jnp.reshape(step, (1,)).astype(jnp.float32)
    rates = jax.vmap(lambda t: _lr(t, base_lr, warmup_steps, total_steps))(steps)
    return rates[0]
