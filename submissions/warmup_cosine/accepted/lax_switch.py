"""jax.lax.switch on the phase index: 0 in the warmup, 1 in the decay, 2 after it.

Expected verdict: accepted.
"""
import jax
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    phase = (step >= warmup_steps).astype(jnp.int32) + (step > total_steps).astype(jnp.int32)
    t = step.astype(jnp.float32)
    decay_steps = total_steps - warmup_steps
    branches = [
        lambda s: base_lr * (s / warmup_steps),
        lambda s: base_lr * 0.5 * (1.0 + jnp.cos(jnp.pi * (s - warmup_steps) / decay_steps)),
        lambda s: jnp.float32(0.0) * s,
    ]
    return jax.lax.switch(phase, branches, t)
