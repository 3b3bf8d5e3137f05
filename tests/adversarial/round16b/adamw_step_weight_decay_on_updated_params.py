"""adamw_step: a near miss: the weight decay applied after the Adam step, to the new params
(``p' = (p - lr * step) * (1 - lr * lambda)``), not to the old ones as the statement asks.

Problem: adamw_step
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    tf = t.astype(jnp.float32)
    c1, c2 = 1 - b1 ** tf, 1 - b2 ** tf
    tm = jax.tree_util.tree_map
    m2 = tm(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
    v2 = tm(lambda a, g: b2 * a + (1 - b2) * g * g, v, grads)
    p2 = tm(lambda p, a, b: (p - lr * (a / c1) / (jnp.sqrt(b / c2) + eps)) * (1 - lr * weight_decay),
            params, m2, v2)
    return {"params": p2, "m": m2, "v": v2, "count": t}
