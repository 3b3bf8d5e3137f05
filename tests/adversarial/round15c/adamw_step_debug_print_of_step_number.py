"""adamw_step: a ``jax.debug.print`` of the step number left in from debugging (a print computes
nothing, unlike the ``jax.debug.callback`` the statement forbids), the moments by
``jax.tree.map`` and the corrections on a float32 ``t``.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    jax.debug.print("adamw step {t}", t=t)
    tf = t.astype(jnp.float32)
    c1, c2 = 1 - b1 ** tf, 1 - b2 ** tf
    m = jax.tree.map(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
    v = jax.tree.map(lambda a, g: b2 * a + (1 - b2) * g * g, v, grads)
    p = jax.tree.map(lambda p, a, b: p - lr * (a / c1 / (jnp.sqrt(b / c2) + eps)
                                               + weight_decay * p), params, m, v)
    return {"params": p, "m": m, "v": v, "count": t}
