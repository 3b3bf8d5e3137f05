"""warmup_cosine: the pieces of the schedule as ``(open, value)`` pairs, ``open`` a flag that
says whether the piece's window is open at ``step``, folded by a Python ``for`` loop whose
variable is named ``open``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    t = jnp.asarray(step, jnp.float32)
    warm = base_lr * t / warmup_steps
    progress = jnp.minimum((t - warmup_steps) / (total_steps - warmup_steps), 1.0)
    cosine = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * progress))
    lr = cosine
    for open, value in ((t < warmup_steps, warm),):
        lr = jnp.where(open, value, lr)
    return lr
