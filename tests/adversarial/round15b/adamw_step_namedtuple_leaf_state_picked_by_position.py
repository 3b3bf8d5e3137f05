"""adamw_step: each leaf's update returns a ``NamedTuple`` ``Leaf(p, m, v)``; the tree of
NamedTuples is split into three trees with ``tree_map`` over ``is_leaf`` picking the NamedTuples
out; the corrections from ``b ** t`` on an int32 t.

Problem: adamw_step
Expected: AC
Cases: all
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Leaf(NamedTuple):
    p: jax.Array
    m: jax.Array
    v: jax.Array


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    t = count + 1
    bc1, bc2 = 1 - b1 ** t, 1 - b2 ** t

    def one(p, g, m, v):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g ** 2
        step = (m / bc1) / (jnp.sqrt(v / bc2) + eps)
        return Leaf(p - lr * (step + weight_decay * p), m, v)

    tree = jax.tree_util.tree_map(one, params, grads, m, v)
    is_leaf = lambda node: isinstance(node, Leaf)
    pick = lambda i: jax.tree_util.tree_map(lambda leaf: leaf[i], tree, is_leaf=is_leaf)
    return {"params": pick(0), "m": pick(1), "v": pick(2), "count": t}
