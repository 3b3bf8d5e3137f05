"""adamw_step: the bias corrections computed as 1 - exp(t * log(b)) with t = count + 1 made a float
(``log(0)`` is -inf, so b = 0 gives 1 - 0), the trees walked with ``jax.tree.map`` over
several trees at once.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    tf = t.astype(jnp.float32)
    c1 = 1.0 - jnp.exp(tf * jnp.log(jnp.float32(b1)))
    c2 = 1.0 - jnp.exp(tf * jnp.log(jnp.float32(b2)))
    new_m = jax.tree.map(lambda mm, g: b1 * mm + (1.0 - b1) * g, m, grads)
    new_v = jax.tree.map(lambda vv, g: b2 * vv + (1.0 - b2) * g * g, v, grads)

    def update(p, mm, vv):
        return p - lr * ((mm / c1) / (jnp.sqrt(vv / c2) + eps) + weight_decay * p)

    return {"params": jax.tree.map(update, params, new_m, new_v), "m": new_m, "v": new_v,
            "count": t.astype(jnp.int32)}
