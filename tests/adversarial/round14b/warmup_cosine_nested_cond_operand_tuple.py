"""warmup_cosine: two nested ``jax.lax.cond`` on the step (after T, then before w), each branch a
lambda over an operand tuple ``(step, lr)``; the step cast with ``jnp.float32(...)``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import math

import jax
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    w, T = warmup_steps, total_steps
    lr = jnp.float32(base_lr)

    def decay(args):
        s, lr = args
        return lr * 0.5 * (1 + jnp.cos(math.pi * jnp.float32(s - w) / (T - w)))

    def warm(args):
        s, lr = args
        return lr * jnp.float32(s) / w

    def active(args):
        if w == 0:
            return decay(args)
        return jax.lax.cond(args[0] < w, warm, decay, args)

    return jax.lax.cond(step > T, lambda args: jnp.float32(0.0), active, (step, lr))
