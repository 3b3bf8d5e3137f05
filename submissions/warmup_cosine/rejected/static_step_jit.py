"""An attack: jax.jit with step itself declared static, so that inside the jitted function it
would be a Python value and the Python if would work.

Expected verdict: rejected (the step is traced by the judge whatever jit declares).
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0, 1, 2, 3))
def _schedule(step, base_lr, warmup_steps, total_steps):
    if step < warmup_steps:
        return jnp.float32(base_lr * step / warmup_steps)
    progress = min((step - warmup_steps) / (total_steps - warmup_steps), 1.0)
    return jnp.float32(0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * progress)))


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    return _schedule(step, base_lr, warmup_steps, total_steps)
