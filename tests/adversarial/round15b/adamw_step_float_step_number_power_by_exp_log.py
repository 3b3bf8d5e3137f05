"""adamw_step: the step number kept in float32 (``count.astype(float32) + 1.0``) and the bias
corrections written as ``1 - exp(t * log(b))`` with ``jnp.log`` of the Python floats, b = 0
guarded by a Python branch (log 0 is -inf, and 0^t is 0 for t >= 1); the count returned as
``(count + 1).astype(int32)``.

Problem: adamw_step
Expected: AC
Cases: all
"""
import math

import jax
import jax.numpy as jnp


def _correction(b: float, t):
    if b == 0.0:
        return jnp.float32(1.0)
    return 1.0 - jnp.exp(t * math.log(b))


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count.astype(jnp.float32) + 1.0
    c1, c2 = _correction(b1, t), _correction(b2, t)
    new_m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
    new_v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * jnp.square(g), v, grads)
    new_p = jax.tree_util.tree_map(
        lambda p, m, v: p - lr * ((m / c1) / (jnp.sqrt(v / c2) + eps) + weight_decay * p),
        params, new_m, new_v)
    return {"params": new_p, "m": new_m, "v": new_v, "count": (count + 1).astype(jnp.int32)}
