"""adamw_step: the hyperparameters in a frozen dataclass (hashable), and the per-leaf update built
once per set of them by a ``functools.lru_cache`` factory; the bias corrections through
``jnp.power`` of the float step, type annotations throughout.

Problem: adamw_step
Expected: AC
Cases: all
"""
import dataclasses
import functools

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Hyper:
    lr: float
    b1: float
    b2: float
    eps: float
    weight_decay: float


@functools.lru_cache(maxsize=None)
def leaf_rule(h: Hyper):
    def rule(p: jax.Array, g: jax.Array, m: jax.Array, v: jax.Array, bc1, bc2):
        m2 = h.b1 * m + (1.0 - h.b1) * g
        v2 = h.b2 * v + (1.0 - h.b2) * jnp.square(g)
        step = (m2 / bc1) / (jnp.sqrt(v2 / bc2) + h.eps)
        return p - h.lr * (step + h.weight_decay * p), m2, v2
    return rule


def adamw_step(params, grads, m, v, count, lr, b1, b2, eps, weight_decay):
    h = Hyper(lr, b1, b2, eps, weight_decay)
    t = count + 1
    tf = t.astype(jnp.float32)
    bc1 = 1.0 - jnp.power(jnp.float32(h.b1), tf)
    bc2 = 1.0 - jnp.power(jnp.float32(h.b2), tf)
    rule = leaf_rule(h)
    triples = jax.tree_util.tree_map(lambda *a: rule(*a, bc1, bc2), params, grads, m, v)
    treedef = jax.tree_util.tree_structure(params)
    p2, m2, v2 = jax.tree_util.tree_transpose(
        treedef, jax.tree_util.tree_structure((0, 0, 0)), triples)
    return {"params": p2, "m": m2, "v": v2, "count": t}
