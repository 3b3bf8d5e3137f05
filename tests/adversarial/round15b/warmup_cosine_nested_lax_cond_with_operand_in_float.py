"""warmup_cosine: two nested ``jax.lax.cond``s on the float32 step (past the end, then in the
warmup), each branch a named inner function; for ``w = 0`` the warmup branch is never taken.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    w = float(warmup_steps)
    T = float(total_steps)

    def after(s):
        return jnp.float32(0.0)

    def warm(s):
        return jnp.float32(base_lr) * s / jnp.float32(max(w, 1.0))

    def decay(s):
        return jnp.float32(base_lr) * 0.5 * (1.0 + jnp.cos(jnp.float32(jnp.pi) * (s - w) / (T - w)))

    def before_end(s):
        return jax.lax.cond(s < w, warm, decay, s)

    s = jnp.asarray(step, jnp.float32)
    return jax.lax.cond(s > T, after, before_end, s)
