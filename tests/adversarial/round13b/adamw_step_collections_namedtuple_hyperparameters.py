"""adamw_step: the hyperparameters in a ``collections.namedtuple`` and the per-leaf update a
function of it; the bias corrections by ``jnp.float32(b) ** t`` with an int32 ``t``.

Problem: adamw_step
Expected: AC
Cases: all
"""
import collections

import jax
import jax.numpy as jnp

Hyper = collections.namedtuple("Hyper", ["lr", "b1", "b2", "eps", "wd"])


def _update(h: Hyper, bc1, bc2, p, g, m, v):
    m = h.b1 * m + (1 - h.b1) * g
    v = h.b2 * v + (1 - h.b2) * g * g
    return p - h.lr * (m / bc1 / (jnp.sqrt(v / bc2) + h.eps) + h.wd * p), m, v


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    h = Hyper(lr, b1, b2, eps, weight_decay)
    t = count + jnp.int32(1)
    bc1 = 1 - jnp.float32(h.b1) ** t
    bc2 = 1 - jnp.float32(h.b2) ** t
    leaves, treedef = jax.tree_util.tree_flatten(params)
    rest = [treedef.flatten_up_to(tree) for tree in (grads, m, v)]
    out = [_update(h, bc1, bc2, p, g, mm, vv) for p, g, mm, vv in zip(leaves, *rest)]
    build = lambda i: jax.tree_util.tree_unflatten(treedef, [o[i] for o in out])
    return {"params": build(0), "m": build(1), "v": build(2), "count": t}
