"""adamw_step: bias corrections computed with ``count`` rather than t = count + 1 (the step
number before this step), guarded with a ``jnp.maximum`` so that count 0 does not divide by
zero: right late in training, wrong on the first steps.

Problem: adamw_step
Expected: WA
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    n = jnp.maximum(count, 1).astype(jnp.float32)
    c1 = 1 - b1 ** n
    c2 = 1 - b2 ** n
    m2 = jax.tree.map(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
    v2 = jax.tree.map(lambda a, g: b2 * a + (1 - b2) * g * g, v, grads)
    p2 = jax.tree.map(lambda p, a, s: p - lr * ((a / c1) / (jnp.sqrt(s / c2) + eps) + weight_decay * p),
                      params, m2, v2)
    return {"params": p2, "m": m2, "v": v2, "count": count + 1}
