"""An attack: concrete_or_error, JAX's own helper for reading a concrete value out of a tracer
when there is one, then a Python branch on it (jax.extend.core's, which every supported JAX
has; jax.core's is gone in JAX 0.11). jax.extend is refused by the source gate; without the
gate, the step under jax.make_jaxpr has no concrete value to give.

Expected verdict: rejected (forbidden_construct with the gate, traced_value_concretized
without it).
"""
import math

import jax.extend.core
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    s = jax.extend.core.concrete_or_error(int, step, "the step")
    if s < warmup_steps:
        return jnp.float32(base_lr * s / warmup_steps)
    progress = min((s - warmup_steps) / (total_steps - warmup_steps), 1.0)
    return jnp.float32(0.5 * base_lr * (1.0 + math.cos(math.pi * progress)))
