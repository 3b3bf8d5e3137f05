"""adamw_step: the counter cast to ``int16`` to save a few bytes; ``count`` goes up to 100000,
so ``t`` wraps to a negative number there, ``b ** t`` overflows and both the step and the
returned count are wrong on those cases.

Problem: adamw_step
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count.astype(jnp.int16) + jnp.int16(1)
    tf = t.astype(jnp.float32)
    bc1, bc2 = 1 - b1 ** tf, 1 - b2 ** tf
    m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
    v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, v, grads)
    params = jax.tree_util.tree_map(
        lambda p, m, v: p - lr * ((m / bc1) / (jnp.sqrt(v / bc2) + eps) + weight_decay * p),
        params, m, v)
    return {"params": params, "m": m, "v": v, "count": t.astype(jnp.int32)}
