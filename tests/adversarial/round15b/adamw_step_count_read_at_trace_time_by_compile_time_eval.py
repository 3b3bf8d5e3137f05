"""adamw_step: a cheat: the bias corrections computed under ``jax.ensure_compile_time_eval``
from ``count`` (a traced value: the judge's trace refuses turning it into a number), meant to
fold b^t into a constant.

Problem: adamw_step
Expected: RJ
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    with jax.ensure_compile_time_eval():
        t = int(count) + 1
        bc1, bc2 = 1 - b1 ** t, 1 - b2 ** t
    tm = jax.tree_util.tree_map
    m = tm(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
    v = tm(lambda v, g: b2 * v + (1 - b2) * g * g, v, grads)
    p = tm(lambda p, m, v: p - lr * (m / bc1 / (jnp.sqrt(v / bc2) + eps) + weight_decay * p),
           params, m, v)
    return {"params": p, "m": m, "v": v, "count": jnp.asarray(t, jnp.int32)}
