"""adamw_step: the Adam paper's "efficient" form: the bias corrections folded into the step size,
lr * sqrt(1 - b2^t) / (1 - b1^t), with eps scaled by sqrt(1 - b2^t) so that the step is the same
as the statement's; ``jax.tree.map`` over four trees at once.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    tf = t.astype(jnp.float32)
    c1 = 1.0 - jnp.power(jnp.float32(b1), tf)
    c2 = jnp.sqrt(1.0 - jnp.power(jnp.float32(b2), tf))
    new_m = jax.tree.map(lambda mm, g: b1 * mm + (1.0 - b1) * g, m, grads)
    new_v = jax.tree.map(lambda vv, g: b2 * vv + (1.0 - b2) * g * g, v, grads)
    step = lr * c2 / c1

    def update(p, mm, vv):
        return p - step * mm / (jnp.sqrt(vv) + eps * c2) - lr * weight_decay * p

    new_p = jax.tree.map(update, params, new_m, new_v)
    return {"params": new_p, "m": new_m, "v": new_v, "count": t.astype(jnp.int32)}
