"""warmup_cosine: two nested ``jax.lax.cond``s (after T, then before w), each branch a lambda
of no arguments closing over the step, the output's dtype pinned with ``jnp.float32``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = jnp.float32(step)
    w, T = warmup_steps, total_steps

    def decay():
        return jnp.float32(base_lr / 2 * (1 + jnp.cos(jnp.pi * (s - w) / (T - w))))

    def schedule():
        return jax.lax.cond(s < w, lambda: jnp.float32(base_lr * s / max(w, 1)), decay)

    return jax.lax.cond(step > T, lambda: jnp.float32(0), schedule)
