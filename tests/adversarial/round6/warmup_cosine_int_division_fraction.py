"""warmup_cosine: the warmup ratio computed with int32 floor division scaled by 1000 (an
"integer-exact" trick): right on the examples, where 5 / 10 is exactly 500 / 1000, but
rounded down to a thousandth elsewhere.

Problem: warmup_cosine
Expected: WA
Cases: all
"""

import jax.numpy as jnp


def warmup_cosine(step, base_lr, warmup_steps, total_steps):
    w = max(warmup_steps, 1)
    permille = (jnp.minimum(step, w) * 1000) // w
    warm = base_lr * permille.astype(jnp.float32) / 1000.0
    p = jnp.clip((step - warmup_steps).astype(jnp.float32) / (total_steps - warmup_steps),
                 0.0, 1.0)
    cos = 0.5 * base_lr * (1.0 + jnp.cos(jnp.pi * p))
    return jnp.where(step < warmup_steps, warm, cos)
