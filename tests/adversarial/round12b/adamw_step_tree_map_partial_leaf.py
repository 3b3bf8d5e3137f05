"""adamw_step: one leaf's update written once, bound to the hyperparameters with
``functools.partial``, mapped over the four trees with ``jax.tree_util.tree_map`` and the
resulting tree of tuples split back with ``tree_transpose``; the bias corrections from ``t``
cast to float32 and ``jnp.power``.

Problem: adamw_step
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def _leaf(p, g, m, v, *, lr, b1, b2, eps, wd, c1, c2):
    m2 = b1 * m + (1.0 - b1) * g
    v2 = b2 * v + (1.0 - b2) * jnp.square(g)
    direction = (m2 / c1) / (jnp.sqrt(v2 / c2) + eps)
    return p - lr * (direction + wd * p), m2, v2


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    tf = t.astype(jnp.float32)
    c1 = 1.0 - jnp.power(jnp.float32(b1), tf)
    c2 = 1.0 - jnp.power(jnp.float32(b2), tf)
    step = functools.partial(_leaf, lr=lr, b1=b1, b2=b2, eps=eps, wd=weight_decay, c1=c1, c2=c2)
    out = jax.tree_util.tree_map(step, params, grads, m, v)
    outer = jax.tree_util.tree_structure(params)
    inner = jax.tree_util.tree_structure((0, 0, 0))
    new_p, new_m, new_v = jax.tree_util.tree_transpose(outer, inner, out)
    return {"params": new_p, "m": new_m, "v": new_v, "count": t}
