"""An attack: jax.ensure_compile_time_eval() around int(step), hoping the step is evaluated
eagerly there. Under jax.make_jaxpr the step is an abstract input, with no value to read.

Expected verdict: rejected (a traced value turned into a Python number).
"""
import math

import jax
import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    with jax.ensure_compile_time_eval():
        s = int(step)
    if s < warmup_steps:
        return jnp.float32(base_lr * s / warmup_steps)
    progress = min((s - warmup_steps) / (total_steps - warmup_steps), 1.0)
    return jnp.float32(0.5 * base_lr * (1.0 + math.cos(math.pi * progress)))
