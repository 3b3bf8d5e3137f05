"""adamw_step: honest code: the bias corrections by ``jnp.power`` of a float32 step number,
``tree_map`` over the four trees, ``jax.numpy`` imported as ``np``.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as np


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    tf = t.astype(np.float32)
    c1 = 1.0 - np.power(np.float32(b1), tf)
    c2 = 1.0 - np.power(np.float32(b2), tf)
    new_m = jax.tree_util.tree_map(lambda mm, g: b1 * mm + (1 - b1) * g, m, grads)
    new_v = jax.tree_util.tree_map(lambda vv, g: b2 * vv + (1 - b2) * g * g, v, grads)
    new_p = jax.tree_util.tree_map(
        lambda p, mm, vv: p - lr * ((mm / c1) / (np.sqrt(vv / c2) + eps) + weight_decay * p),
        params, new_m, new_v)
    return {"params": new_p, "m": new_m, "v": new_v, "count": t}
