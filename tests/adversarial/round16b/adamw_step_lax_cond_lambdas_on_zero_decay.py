"""adamw_step: honest code: the weight decay term added by ``jax.lax.cond`` on a Python bool
(``weight_decay > 0``) with lambdas, and ``jnp.asarray(..., dtype=...)`` on every leaf.

Problem: adamw_step
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = jnp.asarray(count + 1, dtype=jnp.int32)
    tf = jnp.asarray(t, dtype=jnp.float32)
    c1 = 1.0 - b1 ** tf
    c2 = 1.0 - b2 ** tf

    def leaf(p, g, mm, vv):
        p = jnp.asarray(p, dtype=jnp.float32)
        mm = jnp.asarray(b1 * mm + (1.0 - b1) * g, dtype=jnp.float32)
        vv = jnp.asarray(b2 * vv + (1.0 - b2) * g * g, dtype=jnp.float32)
        step = (mm / c1) / (jnp.sqrt(vv / c2) + eps)
        step = jax.lax.cond(weight_decay > 0, lambda a: a + weight_decay * p, lambda a: a, step)
        return p - lr * step, mm, vv

    out = jax.tree_util.tree_map(leaf, params, grads, m, v)
    is_triple = lambda o: isinstance(o, tuple)
    pick = lambda i: jax.tree_util.tree_map(lambda o: o[i], out, is_leaf=is_triple)
    return {"params": pick(0), "m": pick(1), "v": pick(2), "count": t}
