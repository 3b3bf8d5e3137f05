"""adamw_step: the bias corrections with ``jnp.power`` and the update leaf by leaf over
``jax.tree_util.tree_map`` with several trees; the weight decay inside the lr factor.

Problem: adamw_step
Expected: AC
"""

import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    step = count + 1
    tf = step.astype(jnp.float32)
    c1 = 1.0 - jnp.power(b1, tf)
    c2 = 1.0 - jnp.power(b2, tf)
    m2 = jax.tree_util.tree_map(lambda a, g: b1 * a + (1.0 - b1) * g, m, grads)
    v2 = jax.tree_util.tree_map(lambda a, g: b2 * a + (1.0 - b2) * jnp.square(g), v, grads)
    p2 = jax.tree_util.tree_map(
        lambda p, a, b: p - lr * (a / c1 / (jnp.sqrt(b / c2) + eps) + weight_decay * p),
        params, m2, v2)
    return {"params": p2, "m": m2, "v": v2, "count": step}
