"""adamw_step: the weight-decay mode an ``enum.Enum`` (decoupled or L2, the decoupled one used),
one ``jax.tree_util.tree_map`` over the four trees returning a tuple per leaf, split into three
trees with ``is_leaf=lambda t: isinstance(t, tuple)`` and ``operator.itemgetter``.

Problem: adamw_step
Expected: AC
Cases: all
"""
import enum
import operator

import jax
import jax.numpy as jnp


class Decay(enum.Enum):
    L2 = "l2"
    DECOUPLED = "decoupled"


def _leaf(p, g, m, v, *, lr, b1, b2, eps, wd, c1, c2, mode):
    if mode is Decay.L2:
        g = g + wd * p
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    direction = (m / c1) / (jnp.sqrt(v / c2) + eps)
    if mode is Decay.DECOUPLED:
        direction = direction + wd * p
    return p - lr * direction, m, v


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay, mode=Decay.DECOUPLED):
    t = count + 1
    tf = t.astype(jnp.float32)
    c1 = 1 - b1 ** tf
    c2 = 1 - b2 ** tf
    out = jax.tree_util.tree_map(
        lambda *leaves: _leaf(*leaves, lr=lr, b1=b1, b2=b2, eps=eps, wd=weight_decay,
                              c1=c1, c2=c2, mode=mode),
        params, grads, m, v)
    is_tuple = lambda node: isinstance(node, tuple)
    pick = lambda i: jax.tree_util.tree_map(operator.itemgetter(i), out, is_leaf=is_tuple)
    return {"params": pick(0), "m": pick(1), "v": pick(2), "count": t}
