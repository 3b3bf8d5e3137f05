"""adamw_step: the bias corrections skipped once count >= 1000 ("they are 1 by then"): true for
b1 = 0.9, and for b2 = 0.999 only far later (0.999^1001 is 0.37), so the second moment is
under-corrected between step 1000 and a few tens of thousands.

Problem: adamw_step
Expected: WA
Cases: all
"""

import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    late = count >= 1000
    bc1 = jnp.where(late, 1.0, 1 - b1 ** t)
    bc2 = jnp.where(late, 1.0, 1 - b2 ** t)
    m1 = jax.tree_util.tree_map(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
    v1 = jax.tree_util.tree_map(lambda a, g: b2 * a + (1 - b2) * g * g, v, grads)
    p1 = jax.tree_util.tree_map(
        lambda p, a, b: p - lr * (a / bc1 / (jnp.sqrt(b / bc2) + eps) + weight_decay * p),
        params, m1, v1)
    return {"params": p1, "m": m1, "v": v1, "count": t}
