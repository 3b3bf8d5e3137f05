"""adamw_step: a ``lax.cond`` on count == 0 with a shortcut for the first step, the direction
g / (|g| + eps) (m_hat = g and v_hat = g^2 when the moments start at zero), and the general
formula otherwise. The statement's moments are any finite trees, also at count 0: where they are
not zero the shortcut is wrong.

Problem: adamw_step
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    m2 = jax.tree.map(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
    v2 = jax.tree.map(lambda a, g: b2 * a + (1 - b2) * g * g, v, grads)

    def first(_):
        return jax.tree.map(lambda p, a, s, g: p - lr * (g / (jnp.abs(g) + eps) + weight_decay * p),
                            params, m2, v2, grads)

    def later(_):
        t = (count + 1).astype(jnp.float32)
        c1, c2 = 1 - b1 ** t, 1 - b2 ** t
        return jax.tree.map(lambda p, a, s, g: p - lr * ((a / c1) / (jnp.sqrt(s / c2) + eps) + weight_decay * p),
                            params, m2, v2, grads)

    new_p = lax.cond(count == 0, first, later, None)
    return {"params": new_p, "m": m2, "v": v2, "count": count + 1}
