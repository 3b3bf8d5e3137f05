"""adamw_step: the step number kept as a float32 (``count.astype(float32) + 1``, exact below
2^24), the bias corrections ``1 - b ** t`` from it, and the count returned as
``t.astype(jnp.int32)``; the update through ``tree_map`` over a tuple of trees with ``is_leaf``.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count.astype(jnp.float32) + 1.0
    bc1 = 1.0 - b1 ** t
    bc2 = 1.0 - b2 ** t

    def leaf(p, g, m, v):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        p = p - lr * (m / bc1 / (jnp.sqrt(v / bc2) + eps) + weight_decay * p)
        return (p, m, v)

    out = jax.tree_util.tree_map(leaf, params, grads, m, v)
    is_triple = lambda node: isinstance(node, tuple) and len(node) == 3
    pick = lambda i: jax.tree_util.tree_map(lambda t: t[i], out, is_leaf=is_triple)
    return {"params": pick(0), "m": pick(1), "v": pick(2), "count": t.astype(jnp.int32)}
