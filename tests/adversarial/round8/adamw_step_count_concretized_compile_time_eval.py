"""adamw_step: the step number made a Python int by ``jax.ensure_compile_time_eval`` around
``int(count)``, then a Python power: count is traced, so this is a concretization however it
is wrapped.

Problem: adamw_step
Expected: RJ
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    with jax.ensure_compile_time_eval():
        t = int(count) + 1
    c1, c2 = 1 - b1 ** t, 1 - b2 ** t
    m2 = jax.tree.map(lambda a, g: b1 * a + (1 - b1) * g, m, grads)
    v2 = jax.tree.map(lambda a, g: b2 * a + (1 - b2) * g * g, v, grads)
    p2 = jax.tree.map(lambda p, a, s: p - lr * ((a / c1) / (jnp.sqrt(s / c2) + eps) + weight_decay * p),
                      params, m2, v2)
    return {"params": p2, "m": m2, "v": v2, "count": jnp.asarray(t, jnp.int32)}
