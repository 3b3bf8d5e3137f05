"""warmup_cosine: no selection: the phases blended with ``jnp.heaviside`` step functions,
lr = warm * (1 - H(s - w)) + decay * H(s - w) * (1 - H(s - T)), H(0) = 1 for the first and
0 for the second, so that s = w is in the decay and s = T too.

Problem: warmup_cosine
Expected: AC
"""

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = step.astype(jnp.float32)
    in_decay = jnp.heaviside(s - warmup_steps, 1.0)
    past_end = jnp.heaviside(s - total_steps, 0.0)
    warm = base_lr * s / max(warmup_steps, 1)
    progress = jnp.clip((s - warmup_steps) / (total_steps - warmup_steps), 0.0, 1.0)
    decay = 0.5 * base_lr * (1 + jnp.cos(jnp.pi * progress))
    return warm * (1 - in_decay) + decay * in_decay * (1 - past_end)
