"""adamw_step: the Adam paper's folded step size lr * sqrt(1 - b2^t) / (1 - b1^t), but eps left
as it is instead of scaled by sqrt(1 - b2^t): the paper's own "eps hat", which is not the
statement's eps added to sqrt(v_hat). Off wherever eps is large next to sqrt(v) early in
training (the second example's eps = 0.1).

Problem: adamw_step
Expected: WA
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = (count + 1).astype(jnp.float32)
    step = lr * jnp.sqrt(1.0 - b2 ** t) / (1.0 - b1 ** t)
    new_m = jax.tree.map(lambda mm, g: b1 * mm + (1.0 - b1) * g, m, grads)
    new_v = jax.tree.map(lambda vv, g: b2 * vv + (1.0 - b2) * jnp.square(g), v, grads)
    new_p = jax.tree.map(lambda p, mm, vv: p - step * mm / (jnp.sqrt(vv) + eps) - lr * weight_decay * p,
                         params, new_m, new_v)
    return {"params": new_p, "m": new_m, "v": new_v, "count": count + 1}
