"""Reference solution for warmup_cosine: the learning rate at a traced step of a linear warmup
followed by a cosine decay.

lr rises linearly from 0 at step 0 to base_lr at step warmup_steps (base_lr * step /
warmup_steps), then follows half a cosine from base_lr at warmup_steps down to 0 at
total_steps, and stays at 0 after that. step is a traced int32 scalar, so the pieces are
joined with jnp.where on the traced comparison, never with a Python `if`; base_lr,
warmup_steps and total_steps are Python numbers and are used as constants.
"""

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    # Exact: every step count in range (at most 10**6) is below 2**24.
    t = jnp.asarray(step, dtype=jnp.float32)
    # With warmup_steps = 0 this ratio is inf or nan, but t < 0 never holds: jnp.where never
    # picks it.
    warmup = base_lr * t / warmup_steps
    progress = jnp.minimum((t - warmup_steps) / (total_steps - warmup_steps), 1.0)
    decay = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * progress))
    return jnp.where(t < warmup_steps, warmup, decay)
