"""warmup_cosine: ported from a PyTorch ``LambdaLR``: an ``lr_lambda(step)`` returning the
multiplier of ``base_lr`` (``jnp.where`` between the warmup and the clipped cosine), the
learning rate ``base_lr * lr_lambda(step)`` cast with ``.astype(jnp.float32)``.

Problem: warmup_cosine
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def make_lr_lambda(warmup_steps, total_steps):
    def lr_lambda(step):
        step = step.astype(jnp.float32)
        warm = step / max(1, warmup_steps)
        progress = (step - warmup_steps) / float(max(1, total_steps - warmup_steps))
        cosine = 0.5 * (1.0 + jnp.cos(jnp.pi * jnp.clip(progress, 0.0, 1.0)))
        return jnp.where(step < warmup_steps, warm, cosine)

    return lr_lambda


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    lr_lambda = make_lr_lambda(warmup_steps, total_steps)
    return (base_lr * lr_lambda(step)).astype(jnp.float32)
