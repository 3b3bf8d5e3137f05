"""adamw_step: an ``AdamW`` class holding the hyperparameters, its ``update`` jitted with
``jax.jit(..., static_argnums=0)`` on ``self`` (the class hashable by its fields through
``__hash__``/``__eq__``), the tree handled with ``jax.tree.map``.

Problem: adamw_step
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


class AdamW:
    def __init__(self, lr, b1, b2, eps, weight_decay):
        self.h = (lr, b1, b2, eps, weight_decay)

    def __hash__(self):
        return hash(self.h)

    def __eq__(self, other):
        return isinstance(other, AdamW) and self.h == other.h

    @partial(jax.jit, static_argnums=0)
    def update(self, params, grads, m, v, count):
        lr, b1, b2, eps, wd = self.h
        t = count + 1
        m = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
        v = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, v, grads)
        c1, c2 = 1 - b1 ** t, 1 - b2 ** t
        p = jax.tree.map(lambda p, m, v: p - lr * (m / c1 / (jnp.sqrt(v / c2) + eps) + wd * p),
                         params, m, v)
        return {"params": p, "m": m, "v": v, "count": t}


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    return AdamW(lr, b1, b2, eps, weight_decay).update(params, grads, m, v, count)
