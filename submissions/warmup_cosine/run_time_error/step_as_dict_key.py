"""An attack: a table of precomputed rates in a Python dict, looked up with the step.

Expected verdict: run-time error (a traced step cannot be hashed: TypeError, not a
concretization error).
"""
import math

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    table = {}
    for s in range(min(total_steps, 1000) + 1):
        if s < warmup_steps:
            table[s] = base_lr * s / warmup_steps
        else:
            table[s] = 0.5 * base_lr * (1 + math.cos(math.pi * (s - warmup_steps) / (total_steps - warmup_steps)))
    return jnp.float32(table.get(step, 0.0))
