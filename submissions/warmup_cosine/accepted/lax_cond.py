"""Nested jax.lax.cond: the predicate is a traced boolean, each branch a function of the
float step.

Expected verdict: accepted.
"""
import jax
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    t = jnp.float32(step)

    def warmup(s):
        return base_lr * s / warmup_steps

    def cosine(s):
        progress = (s - warmup_steps) / (total_steps - warmup_steps)
        return jnp.float32(0.5 * base_lr) * (1 + jnp.cos(jnp.pi * progress))

    def finished(s):
        return jnp.zeros_like(s)

    def after_warmup(s):
        return jax.lax.cond(s > total_steps, finished, cosine, s)

    return jax.lax.cond(t < warmup_steps, warmup, after_warmup, t)
