"""An honest schedule that prints a line each time its Python runs. Every case is run from
the program traced once for its static signature (base_lr, warmup_steps and total_steps; step
is always an int32 scalar), so the line is printed once per signature, in the first case that
has it, and never again for the cases that share it.

Expected verdict: accepted.
"""
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    print(f"traced at base_lr={base_lr!r} warmup_steps={warmup_steps} total_steps={total_steps}")
    t = step.astype(jnp.float32)
    warm = jnp.clip(t / warmup_steps, 0.0, 1.0) if warmup_steps > 0 else 1.0
    progress = jnp.clip((t - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    return base_lr * warm * (0.5 * (1.0 + jnp.cos(jnp.pi * progress)))
